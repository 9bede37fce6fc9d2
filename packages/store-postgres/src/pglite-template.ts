/**
 * The empty database a new PGlite data directory starts from. PGlite creates a database by running
 * PostgreSQL's initdb in WebAssembly inside the process: a second PGlite instance, a copy of its
 * 128 MB heap, then initdb's own, which held 650-750 MB at once (a fresh example server peaked at
 * about 1 GB). Copying out this archive (what initdb wrote, from the same PGlite, saved by
 * `scripts/write-pglite-template.ts`) costs a few megabytes. At the top of `src/`, so that the
 * relative path to `assets/` is the same from the sources and from the built `dist/`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractTarGz } from './untar.js';

/** The archive: PGlite's data directory right after its initdb, gzipped. */
export const PGLITE_TEMPLATE = fileURLToPath(new URL('../assets/pglite-empty.tar.gz', import.meta.url));

/** Whether `dataDir` names a folder of this file system (not `memory://`, `idb://`…). */
function isFolder(dataDir: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(dataDir);
}

/**
 * Writes the empty database into `dataDir` when it is a folder that is missing or empty, and
 * says whether it did. Extracted beside it first and renamed into place, so a crash midway never
 * leaves a half-written directory that would look like a database.
 */
export async function createFromTemplate(dataDir: string, template = PGLITE_TEMPLATE): Promise<boolean> {
  if (!isFolder(dataDir) || !existsSync(template)) return false;
  const target = resolve(dataDir);
  if (existsSync(target) && readdirSync(target).length > 0) return false;
  await mkdir(dirname(target), { recursive: true });
  const staging = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.partial`);
  try {
    await extractTarGz(template, staging);
    if (existsSync(target)) await rmdir(target);
    await rename(staging, target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return true;
}
