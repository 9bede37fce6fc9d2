/**
 * The CLI as one file for the end-to-end tests: `packages/cli/src/run.ts` and the workspace sources
 * it imports, bundled by esbuild (tsup's) with the workspace's source condition, so each of the
 * tests' few hundred `latchkey` runs starts one plain Node process instead of the launcher and a tsx
 * child compiling the sources (about a fifth of the CPU time). The launcher itself (`bin/latchkey.mjs`:
 * how it hands `--token` to its child) keeps its own tests, which run it as users do.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Where the bundle is written: beside the CLI's dependencies, which it imports as they are. */
export const CLI_BUNDLE = `${root}packages/cli/node_modules/.cache/latchkey-cli.mjs`;

/** Bundles the CLI's sources into {@link CLI_BUNDLE} (about half a second). */
export async function bundleCli(): Promise<void> {
  const esbuild = createRequire(createRequire(import.meta.url).resolve('tsup'))('esbuild') as {
    build(options: Record<string, unknown>): Promise<unknown>;
  };
  await esbuild.build({
    entryPoints: [`${root}packages/cli/src/run.ts`],
    outfile: CLI_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@latchkey/source'],
    // Its optional XML plugins are not installed; loaded from node_modules it finds that out itself.
    external: ['@cyclonedx/cyclonedx-library'],
    // CommonJS dependencies inside an ES module bundle still call require().
    banner: {
      js: "import { createRequire as latchkeyCreateRequire } from 'node:module'; const require = latchkeyCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}
