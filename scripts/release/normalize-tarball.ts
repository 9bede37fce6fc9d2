/**
 * Makes a packed tarball depend only on the commit: `pnpm pack` fixes file times, but writes the
 * dependency maps of the packed package.json in whatever order its workspace ranges resolved in.
 * The tarball is unpacked, those maps sorted by name, and packed again with node-tar: entries in
 * sorted order, npm's fixed time, no owner names.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { create, extract } from 'tar';

/** The time npm and pnpm give every packed file. */
const PACKED_TIME = new Date('1985-10-26T08:15:00.000Z');
const DEPENDENCY_MAPS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

function filesUnder(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, root) : [relative(root, path)];
  });
}

export async function normalizeTarball(file: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-pack-'));
  try {
    await extract({ file, cwd: dir });
    const manifestPath = join(dir, 'package', 'package.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
    for (const key of DEPENDENCY_MAPS) {
      const map = manifest[key] as Record<string, string> | undefined;
      if (map) manifest[key] = Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : 1)));
    }
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    const entries = filesUnder(dir).sort();
    await create({ file, cwd: dir, gzip: true, portable: true, mtime: PACKED_TIME }, entries);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
