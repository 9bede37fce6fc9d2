/**
 * One measured export, in a process of its own so its memory is its own (RSS sampled at every chunk
 * while exporting). Plain JavaScript on the built packages, as an application runs them (no
 * TypeScript loader in the process, nothing resolved to sources): `raw` copies the seeded
 * lines file to an output file; `floor` copies the rows out of PostgreSQL undecoded; `postgres` and `pglite` stream `GET …/activity/export` from
 * `core.handle` into an output file, honouring backpressure. Prints one JSON line.
 *
 * Env: MODE, OUT, and RAW_FILE (raw), DATABASE_URL + SCHEMA (postgres, floor) or PGLITE_DIR and optionally
 * SHARED_BUFFERS (pglite).
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { createCore } from '@latchkey/core';
import { createPostgresStore } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { pgliteDriver } from '@latchkey/store-postgres/pglite';

const env = process.env;
const out = createWriteStream(env.OUT);
/** @param {string | Uint8Array} chunk */
const write = async (chunk) => {
  if (!out.write(chunk)) await once(out, 'drain');
};
const TOKEN = 'lk_bench_export_admin_token_0000000000000000';

/** @returns {Promise<{ chunks: AsyncIterable<string | Uint8Array>, close(): Promise<void>, rows?: () => number }>} */
async function source() {
  if (env.MODE === 'raw') return { chunks: createReadStream(env.RAW_FILE), close: async () => {} };
  if (env.MODE === 'floor') return databaseFloor();
  const driver =
    env.MODE === 'pglite'
      ? await pgliteDriver({
          dataDir: env.PGLITE_DIR,
          ...(env.SHARED_BUFFERS
            ? { pglite: { postgresqlconf: [`shared_buffers = ${env.SHARED_BUFFERS}`] } }
            : {}),
        })
      : await pgDriver({ connectionString: env.DATABASE_URL, max: 2 });
  const store = await createPostgresStore({ driver, schema: env.SCHEMA || 'latchkey' });
  const core = createCore({ store });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const response = await core.handle({
    method: 'GET',
    url: '/api/v2/organizations/acme/activity/export',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  if (response.status !== 200) throw new Error(`export answered ${response.status}`);
  return {
    chunks: /** @type {AsyncIterable<string | Uint8Array>} */ (response.body),
    close: () => store.close(),
  };
}

/**
 * The database's own limit: the export's own query (one organization's events in seq order, by its
 * index) by the same binary \`COPY … TO STDOUT\`, written straight into the file through the same
 * driver with nothing decoded; its lines are the rows PostgreSQL reports having copied.
 * @returns {Promise<{ chunks: AsyncIterable<Uint8Array>, close(): Promise<void>, rows(): number }>}
 */
async function databaseFloor() {
  const require = createRequire(import.meta.resolve('@latchkey/store-postgres'));
  const pg = require('pg');
  const { to } = require('pg-copy-streams');
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  const schema = `"${env.SCHEMA}"`;
  const { rows } = await client.query(`SELECT id FROM ${schema}.organizations WHERE slug = 'acme'`);
  const organization = client.escapeLiteral(rows[0].id);
  const chunks = client.query(
    to(
      `COPY (SELECT body FROM ${schema}.activity_events WHERE organization_id = ${organization} ORDER BY seq) TO STDOUT (FORMAT binary)`,
    ),
  );
  return { chunks, close: () => client.end(), rows: () => chunks.rowCount };
}

const { chunks, close, rows } = await source();
// Timed from the first byte asked for: opening the store and the loader's own start-up are not the export.
const started = performance.now();
const baseRss = process.memoryUsage.rss();
let peakRss = baseRss;
let lines = 0;
for await (const chunk of chunks) {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  if (typeof chunk === 'string') {
    for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) lines++;
  } else {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  await write(chunk);
}
out.end();
await once(out, 'finish');
const seconds = (performance.now() - started) / 1000;
await close();
process.stdout.write(
  `${JSON.stringify({
    lines: rows ? rows() : lines,
    seconds,
    linesPerSecond: (rows ? rows() : lines) / seconds,
    // The process's peak while exporting, and what it held before (Node, the TypeScript loader, the store).
    maxRssMb: peakRss / 1024 / 1024,
    baseRssMb: baseRss / 1024 / 1024,
    lifetimeMaxRssMb: process.resourceUsage().maxRSS / 1024,
  })}\n`,
);
