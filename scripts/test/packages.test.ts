/**
 * The built packages as users get them: `scripts/check-packages.mjs` builds every library with
 * tsup, lints each package.json with publint and loads every export as ESM and as CJS. It runs with
 * the release test, after the rest of the suite, since both build the whole workspace.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

it('every package builds, passes publint and loads each export as ESM and CJS alike', async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
    (resolve) => {
      execFile(
        process.execPath,
        ['scripts/check-packages.mjs'],
        { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
        (error, out, err) =>
          resolve({
            code: error ? Number((error as { code?: number }).code ?? 1) : 0,
            stdout: out,
            stderr: err,
          }),
      );
    },
  );
  expect(code, `${stdout}\n${stderr}`).toBe(0);
  expect(stdout).toContain('package checks: all good');
  expect(stdout).not.toContain('✗');
}, 600_000);
