/**
 * The example servers and the delivery worker as one file each for the tests: their sources and the
 * workspace sources they import, bundled by esbuild (tsup's) with the workspace's source condition,
 * so each of the tests' many starts is one plain Node process loading one file (about a quarter of
 * a second of CPU) instead of tsx compiling and loading a few hundred modules (a second and a half).
 * Each example's server test still starts it once as a user does (`pnpm --dir examples/<name> start`).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const root = new URL('../..', import.meta.url).pathname;

/** The bundled entries: example folder and source file. */
const ENTRIES = [
  ['express', 'src/server.ts'],
  ['fastify', 'src/server.ts'],
  ['hono', 'src/server.ts'],
  ['delivery-worker', 'src/worker.ts'],
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
    build.onLoad({ filter: /\/(packages|examples)\/[^/]+\/src\/.*\.ts$/ }, async ({ path }) => {
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
 * Bundles each entry into `examples/<name>/node_modules/.cache/latchkey-<file>.mjs`, where
 * `exampleBundle` of `@latchkey/test-utils/spawn` finds it (about two seconds for the four).
 */
export async function bundleExamples(): Promise<void> {
  const esbuild = createRequire(createRequire(import.meta.url).resolve('tsup'))('esbuild') as Esbuild;
  await Promise.all(
    ENTRIES.map(([name, entry]) =>
      esbuild.build({
        entryPoints: [`${root}examples/${name}/${entry}`],
        outfile: `${root}examples/${name}/node_modules/.cache/latchkey-${entry.replace(/^src\/|\.ts$/g, '')}.mjs`,
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
