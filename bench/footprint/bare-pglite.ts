/**
 * The raw limit of the footprint benchmark: PGlite alone, opened by the store's driver with the same
 * settings (and, in a new directory, from the same template), no Latchkey code, no migrations. Run
 * as a process of its own: `tsx bare-pglite.ts <data dir> [--postgres-defaults]`; prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pgliteDriver } from '@latchkey/store-postgres/pglite';

const mb = (field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;
const [dataDir, flag] = process.argv.slice(2);
const before = mb('VmRSS');
const driver = await pgliteDriver({
  dataDir: dataDir!,
  ...(flag === '--postgres-defaults'
    ? { template: false, pglite: { startParams: PGlite.defaultStartParams } }
    : {}),
});
await driver.query('SELECT 1');
const opened = { rss: mb('VmRSS'), peak: mb('VmHWM') };
await new Promise((resolve) => setTimeout(resolve, 2_000));
console.log(
  JSON.stringify({ before, opened, idle: mb('VmRSS'), wasmHeap: driver.wasmHeapBytes() / 2 ** 20 }),
);
await driver.close();
