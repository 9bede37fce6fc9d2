/** The node-postgres driver: a `pg.Pool`, given or built from a connection string. */
import type { Pool, PoolConfig } from 'pg';
import type { SqlDriver } from '../../driver.js';
import { DEFAULT_COMMIT_CHECK_TIMEOUT_MS } from '../commit-outcome.js';
import { hasMethods } from '../has-methods.js';
import { withRetries } from '../retry.js';
import { listenOn } from './listen.js';
import { pgQueryable } from './queryable.js';
import { pgSnapshot } from './snapshot.js';
import { pgStreamLines } from './stream-lines.js';
import { pgTransactionOnce } from './transaction.js';

/** Options of {@link pgDriver} when it builds the pool. */
export interface PgDriverOptions {
  /** `postgres://user@host:5432/db` (any form node-postgres accepts). */
  connectionString: string;
  /** Connections in the pool. Default 10. */
  max?: number;
  /** A statement running longer is cancelled and answered with 503. Default 5000 ms; 0 turns it off. */
  statementTimeoutMs?: number;
  /** Waiting longer than this for a free connection answers 503. Default 5000 ms. */
  connectionTimeoutMs?: number;
  /**
   * When the connection breaks while COMMIT is on its way, how long to keep asking the database
   * whether it committed before answering 503 "may have been applied". Default 15000 ms.
   */
  commitCheckTimeoutMs?: number;
  /**
   * `'transaction'` when `connectionString` reaches PostgreSQL through a pooler in transaction mode
   * (PgBouncer `pool_mode = transaction`), which gives each transaction whatever server connection is
   * free: then nothing relies on session state. Statements are not prepared under names; the timeouts are set per transaction (`SET LOCAL`, in
   * the same round trip as `BEGIN`) instead of at connect, which PgBouncer refuses; a query outside a
   * transaction has the pooler's `query_timeout` only; and LISTEN needs {@link listenUrl} (without
   * it, delivery engines poll).
   */
  pooler?: 'transaction';
  /**
   * A direct connection (not through a transaction-mode pooler) for `LISTEN`, held by a pool of its
   * own of one connection. Default: a connection of the main pool, unless {@link pooler} is set.
   */
  listenUrl?: string;
  /** More `pg.PoolConfig` fields (ssl, …), applied last. */
  pool?: Omit<PoolConfig, 'connectionString'>;
}

/** Builds the pool the options describe; its idle connections' errors are left to the pool. */
async function openPool(options: PgDriverOptions, connectionString: string, max: number): Promise<Pool> {
  const { default: pg } = await import('pg');
  const statementTimeout = options.statementTimeoutMs ?? 5_000;
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    application_name: 'latchkey',
    ...(statementTimeout > 0 && !options.pooler
      ? { statement_timeout: statementTimeout, idle_in_transaction_session_timeout: statementTimeout * 2 }
      : {}),
    ...options.pool,
  });
  // An idle connection that breaks (database restart) is reported here; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

/**
 * A driver over node-postgres. Given a `Pool`, it uses it as is and `close()` leaves it open (the
 * application owns it); given a connection string or {@link PgDriverOptions}, it builds a pool with
 * a statement timeout and a connection wait limit, and `close()` drains it.
 */
export async function pgDriver(source: string | Pool | PgDriverOptions): Promise<SqlDriver> {
  const options = hasMethods<Pool>(source, 'connect', 'query')
    ? null
    : typeof source === 'string'
      ? { connectionString: source }
      : source;
  const pool = options
    ? await openPool(options, options.connectionString, options.max ?? 10)
    : (source as Pool);
  const listenPool = options?.listenUrl ? await openPool(options, options.listenUrl, 1) : null;
  // Two connections of its own for the sequencer's seals (opened when first used).
  const sealPool = options ? await openPool(options, options.connectionString, 2) : null;
  const listenVia = listenPool ?? (options?.pooler ? null : pool);
  const settings = {
    commitCheckTimeoutMs: options?.commitCheckTimeoutMs ?? DEFAULT_COMMIT_CHECK_TIMEOUT_MS,
    begin: beginStatement(options),
    prepared: !options?.pooler,
  };
  const direct = pgQueryable(pool, settings.prepared);
  const sealDirect = sealPool && pgQueryable(sealPool, settings.prepared);
  return {
    name: 'pg',
    ...(listenVia ? { listen: (channel, onNotify) => listenOn(listenVia, channel, onNotify) } : {}),
    query: (text, params) => direct.query(text, params),
    transaction: (fn) => withRetries(() => pgTransactionOnce(pool, fn, settings)),
    ...(sealPool
      ? {
          sealTransaction: (fn) => withRetries(() => pgTransactionOnce(sealPool, fn, settings)),
          sealQuery: (text, params) => sealDirect!.query(text, params),
        }
      : {}),
    streamLines: (text, params) => pgStreamLines(pool, text, params),
    snapshot: (fn) => pgSnapshot(pool, fn, settings),
    async close() {
      if (options) await pool.end();
      await sealPool?.end();
      await listenPool?.end();
    },
  };
}

/**
 * What opens a transaction, one statement each: `BEGIN`, and behind a transaction-mode pooler the
 * timeouts too (sent in the round trip of the transaction's first statement, so no round trip of
 * their own), since the connection's own settings may belong to another client's session.
 */
function beginStatement(options: PgDriverOptions | null): string[] {
  const timeout = options?.statementTimeoutMs ?? 5_000;
  if (!options?.pooler || timeout <= 0) return ['BEGIN'];
  return [
    'BEGIN',
    `SET LOCAL statement_timeout = ${Math.floor(timeout)}`,
    `SET LOCAL idle_in_transaction_session_timeout = ${Math.floor(timeout * 2)}`,
  ];
}
