/**
 * A release is built from its commit, not from the working tree: the commit is cloned into a fresh
 * directory and installed from its lockfile (from pnpm's store when it holds everything), so
 * uncommitted changes, stray build output and files outside git never reach a tarball, and the
 * build does not disturb the checkout it was started from.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Checkout {
  dir: string;
  remove(): void;
}

export function checkoutCommit(root: string, commit: string, log: (message: string) => void): Checkout {
  const dir = join(mkdtempSync(join(tmpdir(), 'latchkey-release-build-')), 'latchkey');
  const remove = () => rmSync(join(dir, '..'), { recursive: true, force: true });
  try {
    log(`checking out ${commit.slice(0, 12)} into a clean directory…`);
    execFileSync('git', ['clone', '--quiet', '--no-checkout', root, dir], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    execFileSync('git', ['checkout', '--quiet', commit], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    log('installing from the lockfile…');
    execFileSync('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--reporter=silent'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch (error) {
    remove();
    throw new Error(`Cannot check out and install ${commit}: ${(error as Error).message.split('\n')[0]}`);
  }
  return { dir, remove };
}
