/** What a release is built from: the git commit, its time, and the lockfile's digest. */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ReleaseSource {
  /** The commit checked out (40 hex digits). */
  commit: string;
  /** Its committer time: the one date written into the artifacts, so two builds agree. */
  committedAt: Date;
  /** True when the working tree differs from the commit (recorded, since the build is then not the commit's). */
  dirty: boolean;
  /** Where the source lives, when git knows a remote. */
  uri: string | null;
  lockfileSha256: string;
}

const git = (root: string, ...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

export function readSource(root: string): ReleaseSource {
  let commit: string;
  try {
    commit = git(root, 'rev-parse', 'HEAD');
  } catch {
    throw new Error('A release is built from a git commit, and this is not a git checkout.');
  }
  const epoch = process.env['SOURCE_DATE_EPOCH'];
  const committedAt = new Date(Number(epoch ?? git(root, 'show', '-s', '--format=%ct', 'HEAD')) * 1000);
  let uri: string | null = null;
  try {
    uri = git(root, 'remote', 'get-url', 'origin') || null;
  } catch {
    // No remote: the commit digest alone names the source.
  }
  return {
    commit,
    committedAt,
    dirty: git(root, 'status', '--porcelain', '--untracked-files=no') !== '',
    uri,
    lockfileSha256: createHash('sha256')
      .update(readFileSync(join(root, 'pnpm-lock.yaml')))
      .digest('hex'),
  };
}
