/**
 * Builds the dashboard's app before the tests (about a second), so the example servers and the
 * browser tests serve the current sources, whichever tests run.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const cwd = fileURLToPath(new URL('./packages/dashboard/', import.meta.url));
  const vite = createRequire(`${cwd}package.json`)
    .resolve('vite/package.json')
    .replace(/package\.json$/, 'bin/vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd, stdio: 'inherit' });
}
