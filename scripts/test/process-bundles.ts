/**
 * The programs the tests start as processes of their own, one file each: the example servers, the
 * delivery worker and the store's test scripts (a second app instance pushing or migrating). Their
 * sources and the workspace sources they import are bundled by esbuild (tsup's) with the
 * workspace's source condition, so each of the tests' many starts is one plain Node process loading
 * one file (about a quarter of a second of CPU) instead of tsx compiling and loading a few hundred
 * modules (a second and a half). Each example's server test still starts it once as a user does
 * (`pnpm --dir examples/<name> start`), and the database-cut test runs the worker from source.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('../..', import.meta.url).pathname;

/** The bundled entries: the workspace folder and the source file in it. */
const ENTRIES = [
  ['examples/express', 'src/server.ts'],
  ['examples/fastify', 'src/server.ts'],
  ['examples/hono', 'src/server.ts'],
  ['examples/hono', 'src/conformance-server.ts'],
  ['examples/delivery-worker', 'src/worker.ts'],
  ['packages/store-postgres', 'test/processes/pusher.ts'],
  ['packages/store-postgres', 'test/processes/applier.ts'],
  ['packages/store-postgres', 'test/processes/migrator.ts'],
] as const;

interface Esbuild {
  build(options: Record<string, unknown>): Promise<unknown>;
}

/**
 * A bundled module's `import.meta.url` would be the bundle's: each source file gets its own URL
 * instead, so what it finds beside itself (the dashboard's built assets) it still finds.
 */
const ownUrls = {
  name: 'own-import-meta-url',
  setup(build: { onLoad(options: { filter: RegExp }, load: (args: { path: string }) => unknown): void }) {
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

/**
 * Bundles each entry into `<folder>/node_modules/.cache/latchkey-<file name>.mjs`, where
 * `processBundle` of `@latchkey/test-utils/spawn` finds it (a few seconds for all).
 */
export async function bundleProcesses(): Promise<void> {
  const esbuild = createRequire(createRequire(import.meta.url).resolve('tsup'))('esbuild') as Esbuild;
  await Promise.all(
    ENTRIES.map(([folder, entry]) =>
      esbuild.build({
        entryPoints: [`${root}${folder}/${entry}`],
        outfile: `${root}${folder}/node_modules/.cache/latchkey-${basename(entry, '.ts')}.mjs`,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        conditions: ['@latchkey/source'],
        // PGlite finds its WebAssembly and data files beside its own modules: loaded from node_modules.
        external: ['@electric-sql/pglite', '@electric-sql/pglite/*'],
        plugins: [ownUrls],
        // CommonJS dependencies inside an ES module bundle still call require().
        banner: {
          js: "import { createRequire as latchkeyCreateRequire } from 'node:module'; const require = latchkeyCreateRequire(import.meta.url);",
        },
        logLevel: 'warning',
      }),
    ),
  );
}
