/**
 * An empty PGlite database saved once per test run, so the tests' in-memory databases start from
 * it (PGlite's `loadDataDir`, about half a second of CPU) instead of each running PostgreSQL's
 * initdb in WebAssembly (about two seconds). The driver's own tests still open PGlite plainly, and
 * the examples open theirs in their data directories as users do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

/** Where the image is written: beside the store's dependencies; `test/databases.ts` reads it. */
export const PGLITE_IMAGE = `${root}packages/store-postgres/node_modules/.cache/pglite-empty.tar`;

interface PgliteClass {
  create(
    dataDir: string,
  ): Promise<{ dumpDataDir(compression: 'none'): Promise<Blob>; close(): Promise<void> }>;
}

/** Opens a fresh PGlite in memory and saves its data directory to {@link PGLITE_IMAGE}. */
export async function savePgliteImage(): Promise<void> {
  const require = createRequire(`${root}packages/store-postgres/package.json`);
  const { PGlite } = require('@electric-sql/pglite') as { PGlite: PgliteClass };
  const db = await PGlite.create('memory://');
  try {
    const image = await db.dumpDataDir('none');
    mkdirSync(dirname(PGLITE_IMAGE), { recursive: true });
    writeFileSync(PGLITE_IMAGE, Buffer.from(await image.arrayBuffer()));
  } finally {
    await db.close();
  }
}
