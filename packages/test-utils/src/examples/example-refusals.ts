/** What an example server refuses to start with, each in one line that says what to do. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyringKey } from '@latchkey/core';
import { expect, it } from 'vitest';
import { startExampleFailure } from './start-example.js';

/** Registers the refused-start tests of the example `name`. */
export function describeRefusals(name: string): void {
  it('refuses a store it does not have, with a clear message', async () => {
    const error = await startExampleFailure(name, { PORT: '0', LATCHKEY_STORE: 'redis://127.0.0.1' });
    expect(error?.code).not.toBe(0);
    expect(error?.code).not.toBeUndefined();
    expect(error?.output).toContain('LATCHKEY_STORE="redis://127.0.0.1" is not supported');
  });

  it('refuses a WebAssembly compiler for PGlite it does not have, naming the variable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-example-compiler-'));
    try {
      const error = await startExampleFailure(name, {
        PORT: '0',
        LATCHKEY_STORE: join(dir, 'data'),
        LATCHKEY_PGLITE_WASM_COMPILER: 'turbofan',
      });
      expect(error?.code).toBe(1);
      expect(error?.output).toContain(
        'LATCHKEY_PGLITE_WASM_COMPILER must be "liftoff" or "optimizing", got "turbofan"',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses portal origins that are not origins, naming the variable', async () => {
    const error = await startExampleFailure(name, {
      PORT: '0',
      LATCHKEY_STORE: 'memory',
      LATCHKEY_PORTAL_ORIGINS: 'http://127.0.0.1:4000,http://example.com/settings',
    });
    expect(error?.code).toBe(1);
    expect(error?.output).toContain(
      'LATCHKEY_PORTAL_ORIGINS: portal.allowedOrigins: "http://example.com/settings"',
    );
    expect(error?.output).not.toMatch(/^\s+at /m);
  });

  it('refuses to start on PostgreSQL without LATCHKEY_KEYRING, in one line that says how to make one', async () => {
    // Refused before it connects: a key made up here would seal what other instances cannot open.
    const error = await startExampleFailure(name, {
      PORT: '0',
      LATCHKEY_STORE: 'postgres://postgres@127.0.0.1:5432/test',
      LATCHKEY_KEYRING: '',
    });
    expect(error?.code).toBe(1);
    expect(error?.output).toMatch(
      /^LATCHKEY_KEYRING is required on PostgreSQL.*`latchkey keyring generate`.*node -e .*randomBytes\(32\).*$/m,
    );
    expect(error?.output).not.toMatch(/^\s+at /m);
  });

  it('refuses a keyring text it cannot read in one line, without a stack trace', async () => {
    for (const [keyring, message] of [
      ['k1:c2hvcnQ', 'LATCHKEY_KEYRING: keyring: key "k1" is not 32 bytes'],
      [`bad id:${generateKeyringKey()}`, 'LATCHKEY_KEYRING: keyring: key id "bad id" must be'],
      [`k1:${generateKeyringKey()},k1:${generateKeyringKey()}`, 'keyring: key id "k1" appears twice'],
    ] as const) {
      const error = await startExampleFailure(name, { PORT: '0', LATCHKEY_KEYRING: keyring });
      expect(error?.code).toBe(1);
      expect(error?.output).toContain(message);
      expect(error?.output).not.toMatch(/^\s+at /m);
      expect(error?.output).not.toContain(keyring.slice(3, 20));
    }
  });
}
