/** `createPostgresStore`: every repository port of `@latchkey/core` on PostgreSQL or PGlite. */
import type { LatchkeyStore, StoreTransaction } from '@latchkey/core/store';
import type { SqlDriver } from './driver.js';
import { type MigrationReport, migrate, schemaVersion } from './migrate.js';
import { sqlActivity } from './repositories/activity.js';
import { sqlAuditWebhooks } from './repositories/audit-webhooks.js';
import { sealEveryPending } from './repositories/chain.js';
import { sqlChangeRequests } from './repositories/change-requests.js';
import { sqlDeliveries } from './repositories/deliveries.js';
import { sqlDevices } from './repositories/devices.js';
import { sqlEnvironments } from './repositories/environments.js';
import { sqlKeyIds } from './repositories/key-ids.js';
import { sqlMembers } from './repositories/members.js';
import { sqlNonces } from './repositories/nonces.js';
import { sqlOrganizations } from './repositories/organizations.js';
import { sqlPortalSessions } from './repositories/portal-sessions.js';
import { sqlProjects } from './repositories/projects.js';
import { sqlRequests } from './repositories/requests.js';
import { sqlRestores } from './repositories/restores.js';
import { SealedHeads } from './repositories/sealed-heads.js';
import { sqlSecrets } from './repositories/secrets.js';
import { sqlTokens } from './repositories/tokens.js';
import { sqlWebhookSigningKeys } from './repositories/webhook-signing-keys.js';
import { sqlWitnesses } from './repositories/witnesses.js';
import { sqlWorkloads } from './repositories/workloads.js';
import { driverRunner, type Runner, transactionRunner } from './runner.js';
import { deliveriesChannel, type Tables, tablesOf } from './schema-name.js';
import { backfillTrees } from './tree-backfill.js';
import { dropUnfinishedRestores } from './unfinished-restores.js';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** The engine: `await pgDriver(url or pool)` (from `/pg`) or `await pgliteDriver(dir)` (from `/pglite`). */
  driver: SqlDriver;
  /** The schema holding the tables (created if missing). Default `latchkey`. */
  schema?: string;
  /**
   * Apply pending migrations before returning (default true). With false, the schema must already
   * be current, e.g. migrated by a deploy step that calls {@link migrate}.
   */
  migrate?: boolean;
  /**
   * How often, in milliseconds, the store seals events that pushes left pending longer than that
   * (a push whose process died between its commit and its seal; see `sealPending`). Default 5000;
   * 0 turns the sweep off. Any append or push of the organization, and opening the store, seal
   * them too.
   */
  sealSweepMs?: number;
}

/** The store, with what its start-up migration did. */
export interface PostgresStore extends LatchkeyStore {
  readonly migrations: MigrationReport | null;
  readonly schema: string;
  /** Closes the driver: drains the pool it built, or closes the PGlite database it opened. */
  close(): Promise<void>;
}

/** The repositories that need only a runner and the tables: every one but the activity log. */
const ON_TABLES: {
  [K in Exclude<keyof StoreTransaction, 'activity'>]: (db: Runner, t: Tables) => StoreTransaction[K];
} = {
  organizations: sqlOrganizations,
  projects: sqlProjects,
  environments: sqlEnvironments,
  members: sqlMembers,
  tokens: sqlTokens,
  devices: sqlDevices,
  nonces: sqlNonces,
  secrets: sqlSecrets,
  requests: sqlRequests,
  auditWebhooks: sqlAuditWebhooks,
  deliveries: sqlDeliveries,
  restores: sqlRestores,
  keyIds: sqlKeyIds,
  witnesses: sqlWitnesses,
  workloads: sqlWorkloads,
  webhookSigningKeys: sqlWebhookSigningKeys,
  changeRequests: sqlChangeRequests,
  portalSessions: sqlPortalSessions,
};

type Makers = { [K in keyof StoreTransaction]: (db: Runner) => StoreTransaction[K] };

/** How each repository is made on a runner. */
function makers(t: Tables, driver?: SqlDriver, heads?: SealedHeads): Makers {
  const make: Record<string, (db: Runner) => unknown> = {};
  for (const [name, repository] of Object.entries(ON_TABLES)) make[name] = (db) => repository(db, t);
  // The activity log also streams and seals on the driver's own connections, when there is one.
  make['activity'] = (db) =>
    sqlActivity(db, t, driver?.streamLines?.bind(driver), driver && sealRunner(driver), heads);
  return make as Makers;
}

/** Every repository on `db`, made now. */
function repositories(db: Runner, t: Tables, driver: SqlDriver, heads: SealedHeads): StoreTransaction {
  const make = makers(t, driver, heads);
  const all = {} as Record<string, unknown>;
  for (const [name, maker] of Object.entries(make)) all[name] = (maker as (db: Runner) => unknown)(db);
  return all as unknown as StoreTransaction;
}

/**
 * The repositories of one transaction, each made when first used: a transaction uses one or two
 * of them, and making all sixteen for each was a measurable share of a push's CPU.
 */
function lazyRepositories(db: Runner, make: Makers): StoreTransaction {
  const made = {} as Record<string, unknown>;
  const lazy = {} as Record<string, unknown>;
  for (const [name, maker] of Object.entries(make)) {
    Object.defineProperty(lazy, name, {
      enumerable: true,
      get: () => {
        if (!(name in made)) made[name] = (maker as (db: Runner) => unknown)(db);
        return made[name];
      },
    });
  }
  return lazy as unknown as StoreTransaction;
}

/**
 * Opens the store on `driver`, migrating its schema first. Each repository call runs on its own
 * (several statements in one transaction where the port asks for atomicity); `transaction(fn)`
 * runs `fn` on one connection in one transaction.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const { driver } = options;
  const tables = tablesOf(options.schema ?? 'latchkey');
  const report = options.migrate === false ? null : await migrate(driver, tables);
  // Logs older than the Merkle tree get theirs now, in batches (a no-op once every tree is current).
  if (options.migrate !== false) await backfillTrees(driver, tables);
  const runner = driverRunner(driver);
  // Events a process left pending when it died between a push's commit and its seal.
  if (options.migrate !== false) await sealEveryPending(sealRunner(driver), tables);
  // Restores a process began in steps and did not end: their organizations are emptied. Only one
  // process opens a serial engine (PGlite's data directory), so none of them is still running.
  if (driver.serial && options.migrate !== false) await dropUnfinishedRestores(driver, tables);
  const sweep = sealSweep(sealRunner(driver), tables, options.sealSweepMs ?? 5000);
  const transactionMakers = makers(tables);
  return {
    // The heads the store's own seals left, for its next seals (see `sealPending`).
    ...repositories(runner, tables, driver, new SealedHeads()),
    migrations: report,
    schema: tables.schema,
    ...(driver.serial ? { serialTransactions: true } : {}),
    transaction: (fn) =>
      driver.transaction((tx) => fn(lazyRepositories(transactionRunner(tx), transactionMakers))),
    // A backup's reads in one snapshot; the organization is the backup's, every read is of it.
    ...(driver.snapshot
      ? {
          snapshot: <T>(_organizationId: string, fn: (view: StoreTransaction) => AsyncIterable<T>) =>
            driver.snapshot!((tx) => fn(lazyRepositories(transactionRunner(tx), transactionMakers))),
        }
      : {}),
    ...(driver.listen
      ? {
          watchDeliveries: (onQueued: () => void) =>
            driver.listen!(deliveriesChannel(tables.schema), onQueued),
        }
      : {}),
    status: async () => ({ migrations: await schemaVersion(driver, tables) }),
    close: () => {
      sweep.stop();
      return driver.close();
    },
  };
}

/** Where seals run: the driver's connections kept for them when it has some. */
function sealRunner(driver: SqlDriver): Runner {
  const seal = driver.sealTransaction?.bind(driver);
  const query = driver.sealQuery?.bind(driver) ?? driver.query.bind(driver);
  return seal
    ? { query: (text, params) => query(text, params), atomic: (fn) => seal(fn) }
    : driverRunner(driver);
}

/** The periodic sweep of pending events; its errors are left to the next run (the store may be closing). */
function sealSweep(runner: Runner, tables: Tables, everyMs: number): { stop(): void } {
  if (everyMs <= 0) return { stop() {} };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sealEveryPending(runner, tables, everyMs)
      .catch(() => {})
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
