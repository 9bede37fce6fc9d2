#!/usr/bin/env node
/**
 * `latchkey-example-build <entry.ts> <out.mjs>`: bundles an example's program and the workspace
 * sources it imports (through the workspace's source condition) into one plain JavaScript file,
 * which its start script then runs with `node`. Run from source under the tsx loader, a server held
 * about 80 MB more (the loader, its compiler and the modules it compiled: bench/RESULTS.md, Memory
 * footprint). Its npm dependencies are bundled too, except PGlite, which finds its WebAssembly and
 * data files beside its own modules and is imported from node_modules. Written beside the output
 * and renamed into place, so two starts at once never run half a file.
 */
import { readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A bundled module's `import.meta.url` would be the bundle's: each workspace source file keeps its
 * own, so what it finds beside itself (the dashboard's built assets, PGlite's template) it still finds.
 */
const ownUrls = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\/(packages|examples)\/[^/]+\/(src|test)\/.*\.ts$/ }, async ({ path }) => {
      if (path.includes('/node_modules/')) return undefined;
      const text = await readFile(path, 'utf8');
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)),
        loader: 'ts',
      };
    });
  },
};

const [entry, out] = process.argv.slice(2);
if (!entry || !out) {
  console.error('usage: latchkey-example-build <entry.ts> <out.mjs>');
  process.exit(2);
}
const esbuild = createRequire(import.meta.url)('esbuild');
const outfile = resolve(out);
const staging = `${outfile}.${process.pid}.partial`;
try {
  await esbuild.build({
    entryPoints: [resolve(entry)],
    outfile: staging,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@latchkey/source'],
    external: ['@electric-sql/pglite', '@electric-sql/pglite/*'],
    plugins: [ownUrls],
    // CommonJS dependencies inside an ES module bundle still call require().
    banner: {
      js: "import { createRequire as latchkeyCreateRequire } from 'node:module'; const require = latchkeyCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  await rename(staging, outfile);
} catch (error) {
  await rm(staging, { force: true });
  console.error(`Cannot build ${entry}: ${error.message}`);
  process.exit(1);
}
