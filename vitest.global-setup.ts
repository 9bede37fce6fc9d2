/**
 * Builds the dashboard's app (about a second) and bundles the CLI and the programs the tests start
 * as processes (a few seconds, beside the build) before the tests, so the example servers, the
 * browser tests and the CLI's end-to-end tests run the current sources, whichever tests run; and
 * saves an empty PGlite database the store's tests start their in-memory databases from.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundleCli } from './scripts/test/cli-bundle.js';
import { savePgliteImage } from './scripts/test/pglite-image.js';
import { bundleProcesses } from './scripts/test/process-bundles.js';

export default async function setup(): Promise<void> {
  const cwd = fileURLToPath(new URL('./packages/dashboard/', import.meta.url));
  const vite = createRequire(`${cwd}package.json`)
    .resolve('vite/package.json')
    .replace(/package\.json$/, 'bin/vite.js');
  // Vite's warnings, if any, are printed once it ends.
  const build = promisify(execFile)(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd }).then(
    ({ stdout, stderr }) => process.stderr.write(stdout + stderr),
  );
  await Promise.all([build, bundleCli(), bundleProcesses(), savePgliteImage()]);
}
