/**
 * Builds the dashboard's app (about a second) and bundles the CLI and the programs the tests start
 * as processes (a few seconds, beside the build) before the tests, so the example servers, the
 * browser tests and the CLI's end-to-end tests run the current sources, whichever tests run; and
 * saves an empty PGlite database the store's tests start their in-memory databases from; and makes
 * the slow RSA keys the tests issue client certificates for once (`scripts/test/rsa-keys.ts`).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { bundleCli } from './scripts/test/cli-bundle.js';
import { savePgliteImage } from './scripts/test/pglite-image.js';
import { bundleProcesses } from './scripts/test/process-bundles.js';
import { rsaTestKeys } from './scripts/test/rsa-keys.js';

/** What the tests are given (`inject`), once the work below is done. */
interface Prepared {
  rsaKeys: Record<number, string>;
}

async function prepare(): Promise<Prepared> {
  const cwd = fileURLToPath(new URL('./packages/dashboard/', import.meta.url));
  const vite = createRequire(`${cwd}package.json`)
    .resolve('vite/package.json')
    .replace(/package\.json$/, 'bin/vite.js');
  // Vite's warnings, if any, are printed once it ends.
  const build = promisify(execFile)(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd }).then(
    ({ stdout, stderr }) => process.stderr.write(stdout + stderr),
  );
  const [rsaKeys] = await Promise.all([
    rsaTestKeys(),
    build,
    bundleCli(),
    bundleProcesses(),
    savePgliteImage(),
  ]);
  return { rsaKeys };
}

// Vitest runs the global setup of a run once for each of its projects and once more for the root,
// one after another: the work is done once, by the first, and each project is given its result.
const shared = globalThis as typeof globalThis & { latchkeyTestSetup?: Promise<Prepared> };

export default async function setup(project: TestProject): Promise<void> {
  shared.latchkeyTestSetup ??= prepare();
  const { rsaKeys } = await shared.latchkeyTestSetup;
  project.provide('rsaKeys', rsaKeys);
}
