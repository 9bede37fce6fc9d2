/**
 * Builds the dashboard's app (about a second) and bundles the CLI (half a second) before the tests,
 * so the example servers, the browser tests and the CLI's end-to-end tests run the current sources,
 * whichever tests run.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './scripts/test/cli-bundle.js';

export default async function setup(): Promise<void> {
  const cwd = fileURLToPath(new URL('./packages/dashboard/', import.meta.url));
  const vite = createRequire(`${cwd}package.json`)
    .resolve('vite/package.json')
    .replace(/package\.json$/, 'bin/vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd, stdio: 'inherit' });
  await bundleCli();
}
