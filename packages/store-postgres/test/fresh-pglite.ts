/**
 * A fresh PGlite in memory for the tests, started from the empty database the test run's global
 * setup saved (`scripts/test/pglite-image.ts`) instead of running PostgreSQL's initdb in WebAssembly
 * again: the same empty database at a quarter of the CPU. The driver's own tests open PGlite plainly.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SqlDriver } from '../src/index.js';
import { pgliteDriver } from '../src/pglite.js';

const IMAGE = fileURLToPath(new URL('../node_modules/.cache/pglite-empty.tar', import.meta.url));

/** A driver over a new, empty PGlite in memory (opened plainly when no test run saved the image). */
export async function freshPglite(): Promise<SqlDriver> {
  if (!existsSync(IMAGE)) return pgliteDriver();
  return pgliteDriver({ pglite: { loadDataDir: new Blob([readFileSync(IMAGE)]) } });
}
