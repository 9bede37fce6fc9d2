import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { libraryConfig } from '../../tsup.base.js';

const DIST = 'dist';

/**
 * tsup makes split CJS from its ESM build, and names that intermediate file (and the map's own
 * file) in the CJS source maps by absolute paths: the build directory would end up in the tarball,
 * and two checkouts would pack different bytes. The maps name them relative to themselves instead,
 * like every other source.
 */
async function relativeMapSources(): Promise<void> {
  for (const name of await readdir(DIST)) {
    if (!name.endsWith('.cjs.map')) continue;
    const file = join(DIST, name);
    const map = JSON.parse(await readFile(file, 'utf8')) as { file?: string; sources: string[] };
    const relativeToMap = (path: string) => (path.startsWith('/') ? relative(DIST, path) : path);
    map.sources = map.sources.map(relativeToMap);
    if (map.file) map.file = relativeToMap(map.file);
    await writeFile(file, JSON.stringify(map));
  }
}

// Each driver is an entry point of its own. Code they share with the main entry (the store's error
// classes) goes in shared chunks in CJS too, so `instanceof StoreQueryError` holds across the three.
// Shims give CJS `import.meta.url`, by which the PGlite driver finds its template in `assets/`.
export default libraryConfig(
  { index: 'src/index.ts', pg: 'src/pg.ts', pglite: 'src/pglite.ts' },
  { splitting: true, shims: true, onSuccess: relativeMapSources },
);
