/** The node-postgres driver: a `pg.Pool`, given or built from a connection string. */
import { createHash } from 'node:crypto';
import type { Pool, PoolClient, PoolConfig } from 'pg';
import type { SqlDriver, SqlQueryable, SqlResult } from '../driver.js';
import { isUnavailable, translate } from '../failures.js';
import { DEFAULT_COMMIT_CHECK_TIMEOUT_MS, wasCommitted } from './commit-outcome.js';
import { binaryCopyLines } from './copy-binary.js';
import { inlineParameters } from './inline.js';
import { checkout } from './pg-checkout.js';
import { listenOn } from './pg-listen.js';
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

const isPool = (value: unknown): value is Pool =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Pool).connect === 'function' &&
  typeof (value as Pool).query === 'function';

// Statements with parameters are prepared once per connection under a name derived from their text,
// so PostgreSQL parses and plans each of them once rather than on every call.
const names = new Map<string, string>();
function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `lk_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    if (names.size < 10_000) names.set(text, name);
  }
  return name;
}

function wrap(client: Pool | PoolClient): SqlQueryable {
  return {
    async query<Row>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>> {
      try {
        const result =
          params && params.length > 0
            ? await client.query({ name: nameOf(text), text, values: params as unknown[] })
            : await client.query(text);
        return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        throw translate(error);
      }
    },
  };
}

/**
 * A driver over node-postgres. Given a `Pool`, it uses it as is and `close()` leaves it open (the
 * application owns it); given a connection string or {@link PgDriverOptions}, it builds a pool with
 * a statement timeout and a connection wait limit, and `close()` drains it.
 */
export async function pgDriver(source: string | Pool | PgDriverOptions): Promise<SqlDriver> {
  let pool: Pool;
  let owned = false;
  let commitCheckTimeoutMs = DEFAULT_COMMIT_CHECK_TIMEOUT_MS;
  if (isPool(source)) {
    pool = source;
  } else {
    const options: PgDriverOptions = typeof source === 'string' ? { connectionString: source } : source;
    const { default: pg } = await import('pg');
    const statementTimeout = options.statementTimeoutMs ?? 5_000;
    commitCheckTimeoutMs = options.commitCheckTimeoutMs ?? commitCheckTimeoutMs;
    pool = new pg.Pool({
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
    owned = true;
  }
  const direct = wrap(pool);

  async function once<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    const held = await checkout(pool);
    let result: T;
    let xid: string | null;
    try {
      await held.client.query('BEGIN');
      result = await fn(wrap(held.client));
      // Its id, when it wrote anything: if the answer to COMMIT is lost, the database is asked.
      const { rows } = await held.client.query<{ xid: string | null }>(
        'SELECT txid_current_if_assigned()::text AS xid',
      );
      xid = rows[0]?.xid ?? null;
    } catch (error) {
      let broken = isUnavailable(error);
      try {
        await held.client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      // A connection that failed is destroyed rather than handed to the next caller.
      held.release(broken);
      throw translate(error);
    }
    try {
      await held.client.query('COMMIT');
    } catch (error) {
      const unanswered = isUnavailable(error);
      held.release(unanswered);
      if (!unanswered || xid === null) throw translate(error);
      if (await wasCommitted(pool, xid, error, commitCheckTimeoutMs)) return result;
      throw translate(error);
    }
    held.release();
    return result;
  }

  // `COPY (SELECT …) TO STDOUT` in binary format: PostgreSQL streams the rows as the socket is read,
  // and their bytes go out without being decoded. COPY takes no parameters, so they are inlined as
  // literals quoted by node-postgres. The statement timeout is lifted for the copy (a slow reader
  // must not cut a long export) and restored before the connection goes back to the pool.
  async function* streamLines(text: string, params: readonly unknown[] = []): AsyncGenerator<Uint8Array> {
    const held = await checkout(pool);
    const client = held.client;
    let finished = false;
    try {
      const { to } = await import('pg-copy-streams');
      const sql = inlineParameters(text, params, (value) => client.escapeLiteral(value));
      await client.query('SET statement_timeout = 0');
      const copy = client.query(to(`COPY (${sql}) TO STDOUT (FORMAT binary)`));
      try {
        yield* binaryCopyLines(copy);
      } finally {
        copy.destroy();
      }
      await client.query('RESET statement_timeout');
      finished = true;
    } catch (error) {
      throw translate(error);
    } finally {
      // Abandoned or failed part-way, the connection may still be mid-COPY: it is destroyed.
      held.release(!finished);
    }
  }

  return {
    name: 'pg',
    listen: (channel, onNotify) => listenOn(pool, channel, onNotify),
    query: (text, params) => direct.query(text, params),
    transaction: (fn) => withRetries(() => once(fn)),
    streamLines,
    async close() {
      if (owned) await pool.end();
    },
  };
}
