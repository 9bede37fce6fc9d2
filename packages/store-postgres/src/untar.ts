/**
 * Writes out a gzipped tar of files and folders (what PGlite's `dumpDataDir` makes), streaming:
 * the 16 MB WAL segment of an empty database never sits in memory whole.
 */
import { createReadStream } from 'node:fs';
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { createGunzip } from 'node:zlib';

const BLOCK = 512;

/** The entry's path inside the archive, refused when it would leave the target folder. */
function entryPath(header: Buffer): string {
  const text = (from: number, length: number) =>
    header
      .subarray(from, from + length)
      .toString('utf8')
      .replace(/\0.*$/s, '');
  const prefix = text(345, 155);
  const name = (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100)).replace(/^\/+/, '');
  const clean = normalize(name);
  if (clean.startsWith('..') || clean.startsWith('/')) throw new Error(`unsafe path in archive: ${name}`);
  return clean;
}

/** Extracts the archive `file` into the folder `dir` (created), folders 0700 and files 0600. */
export async function extractTarGz(file: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let buffered: Buffer = Buffer.alloc(0);
  let out: FileHandle | null = null;
  let remaining = 0;
  let padding = 0;
  let ended = false;
  for await (const chunk of createReadStream(file).pipe(createGunzip())) {
    buffered = buffered.length ? Buffer.concat([buffered, chunk as Buffer]) : (chunk as Buffer);
    while (!ended) {
      if (out) {
        const take = Math.min(remaining, buffered.length);
        if (take > 0) await out.write(buffered.subarray(0, take));
        buffered = buffered.subarray(take);
        remaining -= take;
        if (remaining > 0) break;
        await out.close();
        out = null;
        continue;
      }
      if (padding > 0) {
        const skip = Math.min(padding, buffered.length);
        buffered = buffered.subarray(skip);
        padding -= skip;
        if (padding > 0) break;
      }
      if (buffered.length < BLOCK) break;
      const header = buffered.subarray(0, BLOCK);
      buffered = buffered.subarray(BLOCK);
      if (header.every((byte) => byte === 0)) {
        ended = true;
        break;
      }
      const path = join(dir, entryPath(header));
      const type = String.fromCharCode(header[156]!);
      const size = Number.parseInt(
        header.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim() || '0',
        8,
      );
      if (type === '5') {
        await mkdir(path, { recursive: true, mode: 0o700 });
      } else if (type === '0' || type === '\0') {
        out = await open(path, 'w', 0o600);
        remaining = size;
        padding = (BLOCK - (size % BLOCK)) % BLOCK;
        if (size === 0) {
          await out.close();
          out = null;
        }
      } else {
        throw new Error(`unsupported entry type "${type}" in archive: ${path}`);
      }
    }
  }
  if (out) {
    await out.close();
    throw new Error(`archive ${file} ends inside an entry`);
  }
}
