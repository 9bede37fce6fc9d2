import { execFile } from 'node:child_process';
import { parseKeyring } from '@latchkey/core';
import { describe, expect, it } from 'vitest';
import { CLI } from './cli-path.js';

function run(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const clean = { ...process.env };
    delete clean['LATCHKEY_KEYRING'];
    execFile(process.execPath, [CLI, ...args], { env: { ...clean, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('latchkey keyring generate', () => {
  it('prints a k1 entry of 32 random bytes that a server takes as LATCHKEY_KEYRING', async () => {
    const [a, b] = [await run(['keyring', 'generate']), await run(['keyring', 'generate'])];
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^k1:[A-Za-z0-9_-]{43}\n$/);
    expect(a.stdout).not.toBe(b.stdout);
    const keyring = parseKeyring(a.stdout.trim());
    expect(keyring.current).toBe('k1');
    expect(keyring.keys.get('k1')).toHaveLength(32);
  });

  it('takes --id, and never an id LATCHKEY_KEYRING already uses (the next kN instead)', async () => {
    expect((await run(['keyring', 'generate', '--id', 'spring-2027'])).stdout).toMatch(/^spring-2027:/);
    const existing = `k1:${'A'.repeat(43)},k2:${'B'.repeat(43)}`;
    const next = await run(['keyring', 'generate'], { LATCHKEY_KEYRING: existing });
    expect(next.stdout).toMatch(/^k3:[A-Za-z0-9_-]{43}\n$/);
    expect(next.stderr).not.toContain('A'.repeat(43));
    const clash = await run(['keyring', 'generate', '--id', 'k2'], { LATCHKEY_KEYRING: existing });
    expect(clash).toMatchObject({ code: 2, stdout: '' });
    expect(clash.stderr).toMatch(/^latchkey: key id "k2" is already in LATCHKEY_KEYRING.*\n$/);
    const bad = await run(['keyring', 'generate', '--id', 'no spaces']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});
