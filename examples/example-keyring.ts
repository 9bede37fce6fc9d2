/**
 * The keyring an example server seals audit webhook signing secrets with: `LATCHKEY_KEYRING`
 * (`id:base64key,…`, the first current), or, on a PGlite directory, `keyring.txt` beside it (readable
 * by this user only), created on first start. With neither (memory, or PostgreSQL without the
 * variable) the keyring lives as long as the process, and so do the webhooks' secrets.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { generateKeyringKey, parseKeyring } from '@latchkey/core';

export interface ExampleKeyring {
  /** The keyring in its text form (what the core option `keyring` takes). */
  text: string;
  /** Where it came from: `LATCHKEY_KEYRING`, a file, or `generated`. */
  source: string;
}

export function loadExampleKeyring(storeDir: string | null): ExampleKeyring {
  const configured = process.env['LATCHKEY_KEYRING'];
  if (configured) {
    parseKeyring(configured);
    return { text: configured, source: 'LATCHKEY_KEYRING' };
  }
  const file = storeDir ? join(dirname(resolve(storeDir)), 'keyring.txt') : null;
  if (file && existsSync(file)) return { text: readFileSync(file, 'utf8').trim(), source: file };
  const text = `k1:${generateKeyringKey()}`;
  if (file) writeFileSync(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
  return { text, source: file ?? 'generated for this process' };
}
