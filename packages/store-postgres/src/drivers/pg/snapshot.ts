/**
 * A read in one snapshot on node-postgres: a `REPEATABLE READ READ ONLY` transaction on a
 * connection of its own, held while the consumer pulls (a backup's client reads), committed at the
 * end, rolled back when the consumer stops early or a read fails. One transaction, so it works
 * through a transaction-mode pooler too (its `SET LOCAL` timeouts go with its `BEGIN`). The
 * server's `idle_in_transaction_session_timeout` (twice the statement timeout) ends a snapshot
 * whose consumer stops pulling; its next read then fails and the connection is dropped.
 */
import type { Pool } from 'pg';
import type { SqlQueryable } from '../../driver.js';
import { translate } from '../../failures.js';
import { checkout } from './checkout.js';
import { type PgTransactionSettings, rollBack, Transaction } from './transaction.js';

/** What opens the snapshot in place of a plain `BEGIN`. */
const SNAPSHOT_BEGIN = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** Yields what `fn` yields, its reads through `tx` in one snapshot. */
export async function* pgSnapshot<T>(
  pool: Pool,
  fn: (tx: SqlQueryable) => AsyncIterable<T>,
  settings: PgTransactionSettings,
): AsyncGenerator<T> {
  const held = await checkout(pool);
  const begin = [SNAPSHOT_BEGIN, ...settings.begin.filter((statement) => statement !== 'BEGIN')];
  const tx = new Transaction(held, { ...settings, begin });
  let ended = false;
  try {
    yield* fn(tx.queryable);
    await tx.commit();
    ended = true;
    held.release();
  } catch (error) {
    ended = true;
    await rollBack(held, error);
    throw translate(error);
  } finally {
    // Abandoned part-way (the consumer went away): nothing to keep.
    if (!ended) await rollBack(held, null);
  }
}
