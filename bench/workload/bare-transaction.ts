/**
 * The raw limit beside the exchange on PostgreSQL: bare transactions on the same server through the
 * same driver, each inserting as many rows as the exchange writes records (its `jti`, device, token
 * and event) and committing, durably, with nothing else: no reads, no checks, no chain. "one by one"
 * sends each insert in a round trip of its own, as the exchange did before its writes became one
 * statement; "pipelined" defers them all to the COMMIT (two round trips: BEGIN, then the inserts
 * with the COMMIT), the least any durable transaction of this driver costs.
 */
import { pgDriver } from '@latchkey/store-postgres/pg';

/** How many records an exchange writes. */
export const EXCHANGE_WRITES = 4;

/** The two bare transactions, on a scratch table in `schema` (dropped with it). */
export async function bareTransactions(url: string, schema: string) {
  const driver = await pgDriver({ connectionString: url });
  const table = `"${schema}".bench_bare_writes`;
  await driver.query(`CREATE TABLE ${table} (id text PRIMARY KEY, body text NOT NULL)`);
  const insert = `INSERT INTO ${table} (id, body) VALUES ($1, $2)`;
  // About the size of the exchange's rows (its event's body is the largest).
  const body = 'x'.repeat(400);
  let n = 0;
  const ids = () => Array.from({ length: EXCHANGE_WRITES }, () => `w${n++}`);
  return {
    /** Each insert in its own round trip, then the COMMIT. */
    oneByOne: () =>
      driver.transaction(async (tx) => {
        for (const id of ids()) await tx.query(insert, [id, body]);
      }),
    /** Every insert deferred, sent with the COMMIT. */
    pipelined: () =>
      driver.transaction(async (tx) => {
        for (const id of ids()) tx.defer!(insert, [id, body]);
      }),
    close: () => driver.close(),
  };
}
