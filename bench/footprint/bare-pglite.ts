/**
 * The raw limit of the footprint benchmark: PGlite alone, opened by the store's driver with the same
 * settings (and, in a new directory, from the same template), no Latchkey code, no migrations. Run
 * as a process of its own: `bare-pglite <data dir> [--postgres-defaults]` (the footprint bench builds it as the examples
 * are built); prints one JSON line. `--postgres-defaults` opens it as before issue 42: PGlite's
 * initdb, PostgreSQL's memory settings and V8's optimizing WebAssembly tier.
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
    ? {
        template: false,
        wasmCompiler: 'optimizing' as const,
        pglite: { startParams: PGlite.defaultStartParams },
      }
    : {}),
});
await driver.query('SELECT 1');
const opened = { rss: mb('VmRSS'), peak: mb('VmHWM') };
await new Promise((resolve) => setTimeout(resolve, 2_000));
console.log(
  JSON.stringify({ before, opened, idle: mb('VmRSS'), wasmHeap: driver.wasmHeapBytes() / 2 ** 20 }),
);
await driver.close();
