/**
 * The one seam between the repositories and a PostgreSQL engine: run a query, or run a function in
 * one transaction on one connection. Two drivers implement it: `pg` (node-postgres) and PGlite.
 */

/** The rows a query returned, and how many rows it touched. */
export interface SqlResult<Row = Record<string, unknown>> {
  rows: Row[];
  rowCount: number;
}

/** Something queries can be sent to: the driver itself, or an open transaction. */
export interface SqlQueryable {
  /** One statement with `$1…$n` parameters. Values are passed as parameters, never spliced in. */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>>;
  /**
   * Optional, on a transaction: a statement whose answer the caller does not need, sent with the
   * transaction's next round trip (its next query, or its COMMIT) instead of one of its own. Its
   * failure fails that round trip, and so the transaction. Without it, send with {@link query}
   * (see {@link sendDeferred}).
   */
  defer?(text: string, params?: readonly unknown[]): void;
}

/**
 * Makes the rest of the transaction run its prepared statements on their generic plans, with
 * sequential scans disabled. A statement whose custom plan the planner always finds cheaper (arrays
 * of unknown length make a generic plan look dear) is otherwise planned again at every execution,
 * which can cost more than running it; and a generic plan chosen on a table that was small when it
 * was analyzed would read a hot table whole once updates have bloated it. Parameters, so that it is
 * prepared once per connection like the statements it goes with.
 */
export const GENERIC_PLANS = {
  text: `SELECT set_config('plan_cache_mode', $1, true), set_config('enable_seqscan', $2, true)`,
  params: ['force_generic_plan', 'off'],
} as const;

/**
 * Where statements are deferred (and prepared), defers {@link GENERIC_PLANS}: the statements `q`
 * runs from there on, to the end of its transaction, run on their generic plans (the explain test
 * checks the generic plan of each statement sent this way). Elsewhere (PGlite), nothing.
 */
export function onGenericPlans(q: SqlQueryable): void {
  q.defer?.(GENERIC_PLANS.text, GENERIC_PLANS.params);
}

/**
 * Sends a statement whose answer is not needed the cheapest way `q` offers: deferred, or now.
 * `genericPlan` runs it, and the rest of its transaction, on generic plans ({@link onGenericPlans}).
 */
export async function sendDeferred(
  q: SqlQueryable,
  text: string,
  params?: readonly unknown[],
  options: { genericPlan?: boolean } = {},
): Promise<void> {
  if (!q.defer) {
    await q.query(text, params);
    return;
  }
  if (options.genericPlan) onGenericPlans(q);
  q.defer(text, params);
}

/** A PostgreSQL engine, as the store uses it. */
export interface SqlDriver extends SqlQueryable {
  /** Names the engine in messages: `pg` or `pglite`. */
  readonly name: string;
  /**
   * Runs `fn` in one READ COMMITTED transaction on one connection: committed when `fn` resolves,
   * rolled back when it throws (the error is rethrown). A deadlock or serialization failure reported
   * by the database rolls back and runs `fn` again, a few times, before giving up.
   */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /**
   * Optional: {@link transaction} on connections kept for the sequencer's seals, so a seal never
   * waits for a connection behind the very pushes that wait for it. Without it, seals use
   * {@link transaction}.
   */
  sealTransaction?<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Optional: {@link query} on the connections kept for the sequencer's seals (see `sealTransaction`). */
  sealQuery?<Row = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
  ): Promise<SqlResult<Row>>;
  /**
   * Streams a long result without holding it: the first column (text, never NULL nor containing a
   * newline) of each row of the `SELECT` `text`, as UTF-8 lines each ending in `\n`, in chunks of
   * whole lines read only as the consumer pulls them. The query runs in one snapshot on a connection
   * of its own, held until the iteration ends; one abandoned part-way is closed and its connection
   * discarded. Drivers that cannot stream leave it out (the store then reads in keyset pages).
   */
  streamLines?(text: string, params?: readonly unknown[]): AsyncIterable<Uint8Array>;
  /**
   * Optional: yields what `fn` yields, every query it sends through `tx` in one snapshot (a
   * `REPEATABLE READ READ ONLY` transaction), held until the iteration ends or is abandoned (then
   * rolled back). A serial engine reads all of it inside the transaction before yielding any, so
   * it never holds every other caller while a consumer reads.
   */
  snapshot?<T>(fn: (tx: SqlQueryable) => AsyncIterable<T>): AsyncIterable<T>;
  /**
   * Calls `onNotify` for each notification on `channel` (`LISTEN`), from any session of the
   * database, until the returned function is called. A lost connection is re-established.
   */
  listen?(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /**
   * Optional: true when the engine has one connection (PGlite), so a transaction holds every other
   * caller until it ends; the store then says so (`serialTransactions`) and restores run in steps.
   */
  readonly serial?: boolean;
  /** Waits for running queries, then releases every connection (or closes the embedded database). */
  close(): Promise<void>;
}
