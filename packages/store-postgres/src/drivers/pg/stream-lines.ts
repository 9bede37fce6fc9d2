/**
 * `COPY (SELECT …) TO STDOUT` in binary format: PostgreSQL streams the rows as the socket is read,
 * and their bytes go out without being decoded. COPY takes no parameters, so they are inlined as
 * literals quoted by node-postgres. The copy runs in a read-only transaction of its own that lifts the
 * statement timeout (`SET LOCAL`: a slow reader must not cut a long export), so nothing of it
 * outlives the copy, and a transaction-mode pooler keeps it on one server connection.
 */
import type { Pool } from 'pg';
import { translate } from '../../failures.js';
import { binaryCopyLines } from '../copy-binary.js';
import { inlineParameters } from '../inline.js';
import { checkout } from './checkout.js';

/** The driver's `streamLines` on a connection of `pool`, held until the iteration ends. */
export async function* pgStreamLines(
  pool: Pool,
  text: string,
  params: readonly unknown[] = [],
): AsyncGenerator<Uint8Array> {
  const held = await checkout(pool);
  const client = held.client;
  let finished = false;
  try {
    const { to } = await import('pg-copy-streams');
    const sql = inlineParameters(text, params, (value) => client.escapeLiteral(value));
    await client.query('BEGIN READ ONLY; SET LOCAL statement_timeout = 0');
    const copy = client.query(to(`COPY (${sql}) TO STDOUT (FORMAT binary)`));
    try {
      yield* binaryCopyLines(copy);
    } finally {
      copy.destroy();
    }
    await client.query('COMMIT');
    finished = true;
  } catch (error) {
    throw translate(error);
  } finally {
    // Abandoned or failed part-way, the connection may still be mid-COPY: it is destroyed.
    held.release(!finished);
  }
}
