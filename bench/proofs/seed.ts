/**
 * Seeds a Merkle tree of `size` leaves straight into the store's tables, in SQL, without events:
 * leaf i is SHA-256(0x00 || int8send(i)) (an 8-byte stand-in for an event's canonical JSON), each
 * level above is made from the one below in one `INSERT … SELECT` (pairs grouped by `idx / 2`,
 * hashed with PostgreSQL's `sha256`), and the chain head row gets the size and right frontier. A
 * proof reads only these rows, so the events themselves are not needed to time it.
 */
import pg from 'pg';

/** Seeds the tree of organization `organizationId` in `schema`, on a connection of its own without a statement timeout. */
export async function seedTree(url: string, schema: string, organizationId: string, size: number) {
  const driver = new pg.Client({ connectionString: url });
  await driver.connect();
  try {
    await driver.query(`SET statement_timeout = 0; SET work_mem = '256MB'; SET synchronous_commit = off`);
    await seed(driver, schema, organizationId, size);
  } finally {
    await driver.end();
  }
}

async function seed(driver: pg.Client, schema: string, organizationId: string, size: number) {
  const nodes = `"${schema}".activity_tree_nodes`;
  const CHUNK = 1_000_000;
  for (let from = 0; from < size; from += CHUNK) {
    await driver.query(
      `INSERT INTO ${nodes} (organization_id, level, idx, hash)
       SELECT $1, 0, i, sha256('\\x00'::bytea || int8send(i)) FROM generate_series($2::bigint, $3::bigint - 1) AS i`,
      [organizationId, from, Math.min(size, from + CHUNK)],
    );
  }
  for (let level = 1; 2 ** level <= size; level++) {
    await driver.query(
      `INSERT INTO ${nodes} (organization_id, level, idx, hash)
       SELECT $1, $2::smallint, idx / 2, sha256('\\x01'::bytea || string_agg(hash, ''::bytea ORDER BY idx))
       FROM ${nodes} WHERE organization_id = $1 AND level = $2::smallint - 1
       GROUP BY idx / 2 HAVING count(*) = 2`,
      [organizationId, level],
    );
  }
  // The frontier: one complete subtree per bit of the size, the largest first.
  const frontier: { level: number; index: number }[] = [];
  let start = 0;
  for (let level = Math.floor(Math.log2(size)); level >= 0; level--) {
    if (start + 2 ** level <= size) {
      frontier.push({ level, index: start / 2 ** level });
      start += 2 ** level;
    }
  }
  await driver.query(
    `INSERT INTO "${schema}".activity_chains (organization_id, seq, hash, tree_size, tree_frontier)
     SELECT $1, $2::bigint, '', $2::bigint, string_agg(n.hash, ''::bytea ORDER BY f.ord)
     FROM unnest($3::smallint[], $4::bigint[]) WITH ORDINALITY AS f(level, idx, ord)
     JOIN ${nodes} n ON n.organization_id = $1 AND n.level = f.level AND n.idx = f.idx`,
    [organizationId, size, frontier.map((f) => f.level), frontier.map((f) => f.index)],
  );
  await driver.query(`ANALYZE ${nodes}`);
}

/** Drops the bench's schema, on a connection without a statement timeout. */
export async function dropSchemaFor(url: string, schema: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
