/**
 * The keyring an example server seals audit webhook signing secrets and secret values with:
 * `LATCHKEY_KEYRING` (`id:base64key,…`, the first current), or, on a PGlite directory, `keyring.txt`
 * beside it (readable by this user only), created on first start. On PostgreSQL the variable is
 * required: every instance on the database must share the keyring, and a key made up by one process
 * would seal what the others cannot open. In memory, without it, the keyring lives as long as the
 * process, and so does the data. A key is only made for a store that has never sealed anything, so
 * its id never collides with one the data uses; the core then checks the keyring against the ids
 * the store records, and refuses to start when they differ.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { generateKeyringKey, type LatchkeyStore, parseKeyring } from '@latchkey/core';

/** How to make a keyring, for the messages that ask for one. */
export const HOW_TO_MAKE_A_KEYRING =
  "make one with `latchkey keyring generate` (or node -e \"console.log('k1:'+require('node:crypto').randomBytes(32).toString('base64url'))\") and keep it out of the database";

export interface ExampleKeyring {
  /** The keyring in its text form (what the core option `keyring` takes). */
  text: string;
  /** Where it came from: `LATCHKEY_KEYRING`, a file, or `generated`. */
  source: string;
}

/** Whether a store spec names PostgreSQL, where `LATCHKEY_KEYRING` is required. */
export const isPostgresSpec = (spec: string) => /^postgres(ql)?:\/\//i.test(spec);

/** Throws, in one line, when the store `spec` names needs `LATCHKEY_KEYRING` and it is not set. */
export function requireExampleKeyring(spec: string): void {
  if (isPostgresSpec(spec) && !process.env['LATCHKEY_KEYRING']) {
    throw new Error(
      `LATCHKEY_KEYRING is required on PostgreSQL, the same on every instance of the database: ${HOW_TO_MAKE_A_KEYRING}.`,
    );
  }
}

/**
 * The keyring for `store` (a PGlite store when `storeDir` is its directory). Throws an Error with a
 * one-line message for a keyring text that does not parse, and for a PGlite directory whose
 * keyring.txt is gone while its data was sealed (a new key would not open it).
 */
export async function loadExampleKeyring(
  store: LatchkeyStore,
  storeDir: string | null,
): Promise<ExampleKeyring> {
  const configured = process.env['LATCHKEY_KEYRING'];
  if (configured) {
    parseOrThrow(configured, 'LATCHKEY_KEYRING');
    return { text: configured, source: 'LATCHKEY_KEYRING' };
  }
  const file = storeDir ? join(dirname(resolve(storeDir)), 'keyring.txt') : null;
  if (file && existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    parseOrThrow(text, file);
    return { text, source: file };
  }
  const used = (await store.keyIds.list()).map((entry) => `"${entry.key_id}"`);
  if (used.length > 0) {
    throw new Error(
      `${file ?? 'the keyring'} is missing, and the data was sealed with key ${used.length === 1 ? 'id' : 'ids'} ${used.join(', ')}: put the file back (or set LATCHKEY_KEYRING to that keyring); a new key would not open it.`,
    );
  }
  const text = `k1:${generateKeyringKey()}`;
  if (file) writeFileSync(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
  return { text, source: file ?? 'generated for this process' };
}

/** Parses a keyring text; throws its error as one line that says where the text came from. */
function parseOrThrow(text: string, from: string): void {
  try {
    parseKeyring(text);
  } catch (error) {
    throw new Error(
      `${from}: ${(error as Error).message} (entries are id:base64key, comma-separated; ${HOW_TO_MAKE_A_KEYRING})`,
    );
  }
}
