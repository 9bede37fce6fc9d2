/**
 * The in-memory store: the embedded default for demos and unit tests. Every repository method runs
 * to completion without awaiting in between, so each one is atomic within the process.
 * `transaction(fn)` serialises units of work and undoes a failed one from its journal; while one
 * runs, calls made outside it wait until it ends, so nobody sees (or builds on) writes that may
 * still be rolled back. With no transaction running, calls pay nothing for this.
 */
import type { LatchkeyStore, StoreTransaction } from '../store/ports/store.js';
import { memoryActivity } from './activity.js';
import { memoryAuditWebhooks } from './audit-webhooks.js';
import { memoryChangeRequests } from './change-requests.js';
import { memoryDeliveries } from './deliveries.js';
import { memoryDevices } from './devices.js';
import { memoryEnvironments } from './environments.js';
import { memoryKeyIds } from './key-ids.js';
import { memoryMembers } from './members.js';
import { memoryNonces } from './nonces.js';
import { memoryOrganizations } from './organizations.js';
import { memoryPortalSessions } from './portal-sessions.js';
import { memoryProjects } from './projects.js';
import { composedRequests } from './requests.js';
import { memoryRestores } from './restores.js';
import { memorySecrets } from './secrets.js';
import { organizationCopy } from './snapshot.js';
import { createState, type Journal, type MemoryState } from './state.js';
import { memoryTokens } from './tokens.js';
import { memoryWebhookSigningKeys } from './webhook-signing-keys.js';
import { memoryWitnesses } from './witnesses.js';
import { memoryWorkloads } from './workloads.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Upper bound on remembered push nonces; expired ones are dropped first. Default 1,000,000. */
  maxNonces?: number;
}

function repositories(state: MemoryState, journal: Journal): StoreTransaction {
  const base = {
    organizations: memoryOrganizations(state, journal),
    projects: memoryProjects(state, journal),
    environments: memoryEnvironments(state, journal),
    members: memoryMembers(state, journal),
    tokens: memoryTokens(state, journal),
    devices: memoryDevices(state, journal),
    nonces: memoryNonces(state, journal),
    secrets: memorySecrets(state, journal),
    activity: memoryActivity(state, journal),
    auditWebhooks: memoryAuditWebhooks(state, journal),
    deliveries: memoryDeliveries(state, journal),
    restores: memoryRestores(state, journal),
    keyIds: memoryKeyIds(state, journal),
    witnesses: memoryWitnesses(state, journal),
    webhookSigningKeys: memoryWebhookSigningKeys(state, journal),
    changeRequests: memoryChangeRequests(state, journal),
    workloads: memoryWorkloads(state, journal),
    portalSessions: memoryPortalSessions(state, journal),
  };
  return { ...base, requests: composedRequests(base) };
}

/** Wraps every method so that, while a transaction runs, it waits for the transaction to end. */
function gated<T extends object>(repository: T, gate: { current: Promise<void> | null }): T {
  const out: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(repository) as [string, (...args: unknown[]) => unknown][]) {
    out[name] =
      method.constructor.name === 'AsyncGeneratorFunction'
        ? // An iterable must stay one (a restore in steps reads its parts outside any transaction).
          async function* (...args: unknown[]) {
            while (gate.current) await gate.current;
            yield* method(...args) as AsyncIterable<unknown>;
          }
        : (...args: unknown[]) => (gate.current ? waitThen(gate, () => method(...args)) : method(...args));
  }
  return out as T;
}

async function waitThen<R>(gate: { current: Promise<void> | null }, run: () => R): Promise<Awaited<R>> {
  while (gate.current) await gate.current;
  return await run();
}

/** Creates an empty in-memory store. */
export function createMemoryStore(options: MemoryStoreOptions = {}): LatchkeyStore {
  const state = createState(options.maxNonces ?? 1_000_000);
  const gate: { current: Promise<void> | null } = { current: null };
  const outside = repositories(state, null);
  let queue: Promise<unknown> = Promise.resolve();

  async function runOne<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    let open!: () => void;
    gate.current = new Promise<void>((resolve) => {
      open = resolve;
    });
    const journal: (() => void)[] = [];
    try {
      return await fn(repositories(state, journal));
    } catch (error) {
      for (let i = journal.length - 1; i >= 0; i--) journal[i]!();
      throw error;
    } finally {
      gate.current = null;
      open();
    }
  }

  const outsideGated = {
    organizations: gated(outside.organizations, gate),
    projects: gated(outside.projects, gate),
    environments: gated(outside.environments, gate),
    members: gated(outside.members, gate),
    tokens: gated(outside.tokens, gate),
    devices: gated(outside.devices, gate),
    nonces: gated(outside.nonces, gate),
    secrets: gated(outside.secrets, gate),
    activity: gated(outside.activity, gate),
    auditWebhooks: gated(outside.auditWebhooks, gate),
    deliveries: gated(outside.deliveries, gate),
    restores: gated(outside.restores, gate),
    keyIds: gated(outside.keyIds, gate),
    witnesses: gated(outside.witnesses, gate),
    webhookSigningKeys: gated(outside.webhookSigningKeys, gate),
    changeRequests: gated(outside.changeRequests, gate),
    workloads: gated(outside.workloads, gate),
    portalSessions: gated(outside.portalSessions, gate),
  };
  const store: LatchkeyStore = {
    ...outsideGated,
    // The gate holds every outside call while a transaction runs.
    serialTransactions: true,
    requests: composedRequests(outsideGated),
    async watchDeliveries(onQueued) {
      state.deliveryWatchers.add(onQueued);
      return async () => {
        state.deliveryWatchers.delete(onQueued);
      };
    },
    transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      const run = queue.then(() => runOne(fn));
      queue = run.catch(() => undefined);
      return run;
    },
    // The organization copied in one step (as a transaction, after any running one), then read.
    async *snapshot(organizationId, fn) {
      const copied = await store.transaction(async () => organizationCopy(state, organizationId));
      yield* fn(repositories(copied, null));
    },
  };
  return store;
}
