/**
 * One measured export, in a process of its own so its memory is its own (RSS sampled at every chunk
 * while exporting; the process's lifetime peak also includes the TypeScript loader): `raw` copies the seeded
 * lines file to an output file; `postgres` and `pglite` stream `GET …/activity/export` from
 * `core.handle` into an output file, honouring backpressure. Prints one JSON line.
 *
 * Env: MODE, OUT, and RAW_FILE (raw), DATABASE_URL + SCHEMA (postgres) or PGLITE_DIR (pglite).
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { createCore } from '@latchkey/core';
import { createPostgresStore, pgDriver, pgliteDriver } from '@latchkey/store-postgres';

const env = process.env as Record<string, string>;
const out = createWriteStream(env['OUT']!);
const write = async (chunk: string | Uint8Array) => {
  if (!out.write(chunk)) await once(out, 'drain');
};
const TOKEN = 'lk_bench_export_admin_token_0000000000000000';

async function source(): Promise<{ chunks: AsyncIterable<string | Uint8Array>; close(): Promise<void> }> {
  if (env['MODE'] === 'raw') return { chunks: createReadStream(env['RAW_FILE']!), close: async () => {} };
  const driver =
    env['MODE'] === 'pglite'
      ? await pgliteDriver(env['PGLITE_DIR']!)
      : await pgDriver({ connectionString: env['DATABASE_URL']!, max: 2 });
  const store = await createPostgresStore({ driver, schema: env['SCHEMA'] || 'latchkey' });
  const core = createCore({ store });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const response = await core.handle({
    method: 'GET',
    url: '/api/v2/organizations/acme/activity/export',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  if (response.status !== 200) throw new Error(`export answered ${response.status}`);
  return { chunks: response.body as AsyncIterable<string>, close: () => store.close() };
}

const { chunks, close } = await source();
// Timed from the first byte asked for: opening the store and the loader's own start-up are not the export.
const started = performance.now();
const baseRss = process.memoryUsage().rss;
let peakRss = baseRss;
let lines = 0;
for await (const chunk of chunks) {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1');
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  await write(chunk);
}
out.end();
await once(out, 'finish');
const seconds = (performance.now() - started) / 1000;
await close();
process.stdout.write(
  `${JSON.stringify({
    lines,
    seconds,
    linesPerSecond: lines / seconds,
    // The process's peak while exporting, and what it held before (Node, the TypeScript loader, the store).
    maxRssMb: peakRss / 1024 / 1024,
    baseRssMb: baseRss / 1024 / 1024,
    lifetimeMaxRssMb: process.resourceUsage().maxRSS / 1024,
  })}\n`,
);
