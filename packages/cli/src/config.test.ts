import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePrivateFile } from './config.js';

describe('private files', () => {
  it('are replaced whole, mode 0600, with no temporary file left beside them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-config-'));
    const path = join(dir, '.env');
    writeFileSync(path, 'A=1\n', { mode: 0o644 });
    writePrivateFile(path, 'A=2\n');
    expect(readFileSync(path, 'utf8')).toBe('A=2\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['.env']);
  });

  it('are written through a symbolic link, which stays a link', () => {
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-config-'));
    writeFileSync(join(dir, 'shared.env'), 'A=1\n');
    symlinkSync(join(dir, 'shared.env'), join(dir, '.env'));
    writePrivateFile(join(dir, '.env'), 'A=2\n');
    expect(lstatSync(join(dir, '.env')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'shared.env'), 'utf8')).toBe('A=2\n');
  });
});
