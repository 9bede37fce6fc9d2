/**
 * A new PGlite directory starts from the template the package ships instead of PGlite's initdb:
 * the same empty database, made by the PGlite the store is developed against; and an archive the
 * installed PGlite cannot start is put aside for initdb.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteDriver } from '../src/pglite.js';
import { createFromTemplate, PGLITE_TEMPLATE } from '../src/pglite-template.js';

const root = mkdtempSync(join(tmpdir(), 'latchkey-template-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The content of `name` in the (uncompressed) tar `tar`. */
function entry(tar: Buffer, name: string): Buffer | null {
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) return null;
    const path = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = Number.parseInt(header.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
    if (path.replace(/^\/+/, '') === name) return tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return null;
}

describe('the PGlite template', { timeout: 90_000 }, () => {
  it('holds the empty database of the PostgreSQL version the installed PGlite runs', async () => {
    const version = entry(gunzipSync(readFileSync(PGLITE_TEMPLATE)), 'PG_VERSION')!
      .toString()
      .trim();
    const db = await pgliteDriver(join(root, 'version', 'data'));
    try {
      const { rows } = await db.query<{ major: string }>(
        `SELECT current_setting('server_version_num') AS major`,
      );
      // Regenerate with scripts/write-pglite-template.ts after upgrading @electric-sql/pglite.
      expect(version).toBe(String(Math.floor(Number(rows[0]!.major) / 10_000)));
    } finally {
      await db.close();
    }
  });

  it('starts a new directory from it, a database as initdb makes one, that keeps its data', async () => {
    const dir = join(root, 'new', 'data');
    const first = await pgliteDriver(dir);
    try {
      const { rows } = await first.query<Record<string, string>>(
        `SELECT datcollate, datctype, pg_encoding_to_char(encoding) AS encoding FROM pg_database WHERE datname = current_database()`,
      );
      // What PGlite's initdb makes (--locale=C.UTF-8 --encoding UTF8).
      expect(rows[0]).toEqual({ datcollate: 'C', datctype: 'C.UTF-8', encoding: 'UTF8' });
      await first.query('CREATE TABLE kept (id int)');
      await first.query('INSERT INTO kept VALUES (42)');
    } finally {
      await first.close();
    }
    expect(readdirSync(join(root, 'new'))).toEqual(['data']);
    const again = await pgliteDriver(dir);
    try {
      expect((await again.query('SELECT id FROM kept')).rows).toEqual([{ id: 42 }]);
    } finally {
      await again.close();
    }
  });

  it('writes only into a folder that is missing or empty', async () => {
    const busy = join(root, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'notes.txt'), 'mine');
    expect(await createFromTemplate(busy)).toBe(false);
    expect(readdirSync(busy)).toEqual(['notes.txt']);
    expect(await createFromTemplate('memory://')).toBe(false);
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(await createFromTemplate(empty)).toBe(true);
    expect(existsSync(join(empty, 'PG_VERSION'))).toBe(true);
  });

  it('refuses an archive whose paths leave the folder', async () => {
    const header = Buffer.alloc(512);
    header.write('../escaped', 0);
    header.write('0000644\0', 100);
    header.write('00000000000\0', 124);
    header.write('0', 156);
    const evil = join(root, 'evil.tar.gz');
    writeFileSync(evil, gzipSync(Buffer.concat([header, Buffer.alloc(1024)])));
    await expect(createFromTemplate(join(root, 'evil', 'data'), evil)).rejects.toThrow('unsafe path');
    expect(existsSync(join(root, 'evil', 'escaped'))).toBe(false);
    expect(readdirSync(join(root, 'evil'))).toEqual([]);
  });
});
