import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative } from 'node:path';
import { libraryConfig } from '../../tsup.base.js';

/**
 * tsup writes the source maps of split CJS chunks with the output's absolute path (`file`, and the
 * chunk itself among `sources`): relative to the map, as every other map has them, so a package
 * names no path of the machine that built it and two builds of one commit are the same bytes.
 */
function relativeMaps(dir: string): void {
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.map'))) {
    const path = join(dir, name);
    const map = JSON.parse(readFileSync(path, 'utf8')) as { file?: string; sources?: string[] };
    const local = (p: string) => (isAbsolute(p) ? relative(dir, p) || basename(p) : p);
    if (map.file !== undefined) map.file = local(map.file);
    map.sources = map.sources?.map(local);
    writeFileSync(path, JSON.stringify(map));
  }
}

// Each driver is an entry point of its own. Code they share with the main entry (the store's error
// classes) goes in shared chunks in CJS too, so `instanceof` holds across the three.
export default libraryConfig(
  { index: 'src/index.ts', pg: 'src/pg.ts', pglite: 'src/pglite.ts' },
  {
    splitting: true,
    onSuccess: async () => relativeMaps(join(import.meta.dirname ?? __dirname, 'dist')),
  },
);
