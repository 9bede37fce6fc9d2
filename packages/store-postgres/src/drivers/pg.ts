/** The node-postgres driver: a `pg.Pool`, given or built from a connection string. */
import type { Pool, PoolConfig } from 'pg';
import type { SqlDriver } from '../driver.js';
import { DEFAULT_COMMIT_CHECK_TIMEOUT_MS } from './commit-outcome.js';
import { hasMethods } from './has-methods.js';
import { listenOn } from './pg-listen.js';
import { pgQueryable } from './pg-queryable.js';
import { pgStreamLines } from './pg-stream-lines.js';
import { pgTransactionOnce } from './pg-transaction.js';
import { withRetries } from './retry.js';

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
  /** More `pg.PoolConfig` fields (ssl, …), applied last. */
  pool?: Omit<PoolConfig, 'connectionString'>;
}

/** Builds the pool the options describe; its idle connections' errors are left to the pool. */
async function openPool(options: PgDriverOptions): Promise<Pool> {
  const { default: pg } = await import('pg');
  const statementTimeout = options.statementTimeoutMs ?? 5_000;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    application_name: 'latchkey',
    ...(statementTimeout > 0
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
  const pool = options ? await openPool(options) : (source as Pool);
  const commitCheckTimeoutMs = options?.commitCheckTimeoutMs ?? DEFAULT_COMMIT_CHECK_TIMEOUT_MS;
  const direct = pgQueryable(pool);
  return {
    name: 'pg',
    listen: (channel, onNotify) => listenOn(pool, channel, onNotify),
    query: (text, params) => direct.query(text, params),
    transaction: (fn) => withRetries(() => pgTransactionOnce(pool, fn, commitCheckTimeoutMs)),
    streamLines: (text, params) => pgStreamLines(pool, text, params),
    async close() {
      if (options) await pool.end();
    },
  };
}
