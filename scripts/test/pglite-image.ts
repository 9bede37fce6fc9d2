/**
 * An empty PGlite database saved once per test run, so the tests' in-memory databases start from
 * it (PGlite's `loadDataDir`, about half a second of CPU) instead of each running PostgreSQL's
 * initdb in WebAssembly (about two seconds). The driver's own tests still open PGlite plainly, and
 * the examples open theirs in their data directories as users do.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

/** Where the image is written: beside the store's dependencies; `test/databases.ts` reads it. */
export const PGLITE_IMAGE = `${root}packages/store-postgres/node_modules/.cache/pglite-empty.tar`;

interface PgliteClass {
  create(
    dataDir: string,
  ): Promise<{ dumpDataDir(compression: 'none'): Promise<Blob>; close(): Promise<void> }>;
}

/** The version of PGlite the store resolves, from the package.json above its entry. */
function pgliteVersion(entry: string): string {
  let dir = dirname(entry);
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Opens a fresh PGlite in memory and saves its data directory to {@link PGLITE_IMAGE}, unless the
 * image there was made by the same version of PGlite (a run of one test file then starts at once).
 */
export async function savePgliteImage(): Promise<void> {
  const require = createRequire(`${root}packages/store-postgres/package.json`);
  const entry = require.resolve('@electric-sql/pglite');
  const version = pgliteVersion(entry);
  const made = `${PGLITE_IMAGE}.version`;
  if (existsSync(PGLITE_IMAGE) && existsSync(made) && readFileSync(made, 'utf8') === version) return;
  const { PGlite } = require(entry) as { PGlite: PgliteClass };
  const db = await PGlite.create('memory://');
  try {
    const image = await db.dumpDataDir('none');
    mkdirSync(dirname(PGLITE_IMAGE), { recursive: true });
    writeFileSync(PGLITE_IMAGE, Buffer.from(await image.arrayBuffer()));
    writeFileSync(made, version);
  } finally {
    await db.close();
  }
}
