/**
 * One attempt at a transaction on node-postgres, on a connection of its own. A connection that
 * failed is destroyed rather than handed to the next caller; a COMMIT whose answer was lost is
 * settled by asking the database (see `commit-outcome.ts`).
 *
 * Round trips are what a transaction's time goes to, so it sends its statements in as few as it
 * can (see `pg-pipeline.ts`): BEGIN and the transaction id go with the first statement that has
 * parameters, and statements the caller defers (`defer`: it needs no rows of them) go with the next
 * statement or with the COMMIT. A transaction whose function sends nothing sends no BEGIN either.
 */
import type { Pool } from 'pg';
import type { SqlQueryable, SqlResult } from '../../driver.js';
import { isUnavailable, translate } from '../../failures.js';
import { wasCommitted } from '../commit-outcome.js';
import { translated } from '../translated.js';
import { checkout, type HeldClient } from './checkout.js';
import { type PipelinedStatement, pipeline } from './pipeline.js';
import { nameOf, pgQueryable } from './queryable.js';

/** The transaction's id, read with its BEGIN. */
const XID = 'SELECT txid_current()::text AS xid';

/** How the driver runs its transactions. */
export interface PgTransactionSettings {
  /** How long to ask whether a COMMIT whose answer was lost took effect. */
  commitCheckTimeoutMs: number;
  /** What opens the transaction, one statement each (`BEGIN`, with its `SET LOCAL`s behind a pooler). */
  begin: readonly string[];
  /** Named prepared statements (false behind a transaction-mode pooler). */
  prepared: boolean;
}

/** The transaction as it goes: opened or not, its id, the statements waiting for the next round trip. */
export class Transaction {
  opened = false;
  xid: string | null = null;
  private deferred: PipelinedStatement[] = [];
  /** The transaction's round trips one after the other, as its connection runs them anyway. */
  private turn: Promise<unknown> = Promise.resolve();
  private readonly plain: SqlQueryable;

  constructor(
    private readonly held: HeldClient,
    private readonly settings: PgTransactionSettings,
  ) {
    this.plain = pgQueryable(held.client, settings.prepared);
  }

  /** The handle given to the transaction's function. */
  readonly queryable: SqlQueryable = {
    query: (text, params) => this.inTurn(() => this.query(text, params)),
    defer: (text, params) => {
      this.deferred.push(this.statement(text, params));
    },
  };

  private inTurn<T>(step: () => Promise<T>): Promise<T> {
    const next = this.turn.then(step, step);
    this.turn = next.catch(() => {});
    return next;
  }

  private statement(text: string, params?: readonly unknown[]): PipelinedStatement {
    const values = params ?? [];
    return this.settings.prepared && values.length > 0
      ? { text, values, name: nameOf(text) }
      : { text, values };
  }

  /** BEGIN and the id, and then `statements`, in one round trip; their answers. */
  private async send(statements: PipelinedStatement[]): Promise<SqlResult<Record<string, unknown>>[]> {
    const xid = this.settings.prepared ? { text: XID, name: nameOf(XID) } : { text: XID };
    const head = this.opened ? [] : [...this.settings.begin.map((text) => ({ text })), xid];
    const opening = !this.opened;
    this.opened = true;
    const answers = await pipeline(this.held.client, [...head, ...statements]);
    if (opening) this.xid = (answers[head.length - 1]?.rows[0]?.['xid'] as string | undefined) ?? null;
    return answers.slice(head.length).map((a) => ({ rows: a.rows, rowCount: a.rowCount ?? 0 }));
  }

  private async query<Row>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>> {
    if (params === undefined || params.length === 0) {
      // Text without parameters may hold several statements, which only a simple query can carry.
      if (!this.opened || this.deferred.length > 0)
        await translated(() => this.send(this.deferred.splice(0)));
      return this.plain.query<Row>(text, params);
    }
    // Failed as the connection's plain queries fail: translated (503 for "not now").
    const answers = await translated(() =>
      this.send([...this.deferred.splice(0), this.statement(text, params)]),
    );
    return answers[answers.length - 1] as SqlResult<Row>;
  }

  /**
   * Sends what is deferred with the COMMIT. The transaction is opened first when it is not (its id
   * must be known before the COMMIT goes, see `commit-outcome.ts`). Nothing when nothing was ever
   * sent: there is nothing to commit.
   */
  async commit(): Promise<void> {
    await this.turn;
    if (!this.opened && this.deferred.length === 0) return;
    if (!this.opened) await this.send([]);
    await pipeline(this.held.client, [...this.deferred.splice(0), { text: 'COMMIT' }]);
  }
}

/** Runs `fn` in BEGIN … COMMIT on a connection from `pool`; rolls back and rethrows when it throws. */
export async function pgTransactionOnce<T>(
  pool: Pool,
  fn: (tx: SqlQueryable) => Promise<T>,
  settings: PgTransactionSettings,
): Promise<T> {
  const held = await checkout(pool);
  const tx = new Transaction(held, settings);
  let result: T;
  try {
    result = await fn(tx.queryable);
  } catch (error) {
    await rollBack(held, error);
    throw translate(error);
  }
  try {
    await tx.commit();
  } catch (error) {
    if (!isUnavailable(error)) {
      // A deferred statement failed and the COMMIT behind it was skipped: the transaction is still
      // open, aborted (after a COMMIT that itself failed, ROLLBACK only warns).
      await rollBack(held, error);
      throw translate(error);
    }
    held.release(true);
    if (tx.xid === null) throw translate(error);
    if (await wasCommitted(pool, tx.xid, error, settings.commitCheckTimeoutMs)) return result;
    throw translate(error);
  }
  held.release();
  return result;
}

/** Rolls the connection's transaction back and gives the connection back (destroyed if it broke). */
export async function rollBack(held: HeldClient, error: unknown): Promise<void> {
  let broken = isUnavailable(error);
  try {
    await held.client.query('ROLLBACK');
  } catch {
    broken = true;
  }
  held.release(broken);
}
