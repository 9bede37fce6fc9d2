/**
 * One attempt at a transaction on node-postgres, on a connection of its own. A connection that
 * failed is destroyed rather than handed to the next caller; a COMMIT whose answer was lost is
 * settled by asking the database (see `commit-outcome.ts`).
 */
import type { Pool, QueryResult } from 'pg';
import type { SqlQueryable } from '../driver.js';
import { isUnavailable, translate } from '../failures.js';
import { wasCommitted } from './commit-outcome.js';
import { checkout } from './pg-checkout.js';
import { pgQueryable } from './pg-queryable.js';

/** The transaction's id, read with its BEGIN. */
const XID = 'SELECT txid_current()::text AS xid';

/** How the driver runs its transactions. */
export interface PgTransactionSettings {
  /** How long to ask whether a COMMIT whose answer was lost took effect. */
  commitCheckTimeoutMs: number;
  /** What opens the transaction (`BEGIN`, with its `SET LOCAL`s behind a pooler). */
  begin: string;
  /** Named prepared statements (false behind a transaction-mode pooler). */
  prepared: boolean;
}

/** Runs `fn` in BEGIN … COMMIT on a connection from `pool`; rolls back and rethrows when it throws. */
export async function pgTransactionOnce<T>(
  pool: Pool,
  fn: (tx: SqlQueryable) => Promise<T>,
  settings: PgTransactionSettings,
): Promise<T> {
  const held = await checkout(pool);
  let result: T;
  let xid: string | null;
  try {
    // Its id, read in the round trip that opens it (one simple query of several statements): if the
    // answer to COMMIT is lost, the database is asked. Reading it assigns one to a transaction that
    // only reads, which then writes a commit record; every hot transaction writes anyway, and a
    // round trip per transaction costs more than that.
    const opened = (await held.client.query(`${settings.begin}; ${XID}`)) as unknown as
      | QueryResult<{ xid: string }>
      | QueryResult<{ xid: string }>[];
    xid = (Array.isArray(opened) ? opened[opened.length - 1] : opened)?.rows[0]?.xid ?? null;
    result = await fn(pgQueryable(held.client, settings.prepared));
  } catch (error) {
    let broken = isUnavailable(error);
    try {
      await held.client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    held.release(broken);
    throw translate(error);
  }
  try {
    await held.client.query('COMMIT');
  } catch (error) {
    const unanswered = isUnavailable(error);
    held.release(unanswered);
    if (!unanswered || xid === null) throw translate(error);
    if (await wasCommitted(pool, xid, error, settings.commitCheckTimeoutMs)) return result;
    throw translate(error);
  }
  held.release();
  return result;
}
