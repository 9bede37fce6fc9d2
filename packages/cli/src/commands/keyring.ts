/**
 * `latchkey keyring generate [--id ID]`: prints a new keyring entry, `id:<32 random bytes,
 * base64url>`, for a server's `LATCHKEY_KEYRING` (encryption at rest). Runs offline. When
 * `LATCHKEY_KEYRING` is set here, the id is one it does not use yet (the next `kN`), so the entry can
 * go first in it for a rotation; a key under an id the data already uses would not open that data.
 */
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { createOutput } from '../output.js';

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** The key ids of a keyring text (`id:key,…`), without reading its keys. */
function keyIdsOf(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => entry.slice(0, Math.max(0, entry.indexOf(':'))));
}

/** `k1`, or the first `kN` after every `kN` in use. */
function nextKeyId(used: string[]): string {
  const numbers = used.map((id) => /^k(\d{1,9})$/.exec(id)?.[1]).filter((n) => n !== undefined);
  return `k${Math.max(0, ...numbers.map(Number)) + 1}`;
}

/** Registers `keyring generate`. */
export function registerKeyring(program: Command): void {
  const keyring = program
    .command('keyring')
    .description("Make keys for a server's encryption at rest (LATCHKEY_KEYRING)");
  keyring
    .command('generate')
    .description('Print a new keyring entry, id:<32 random bytes, base64url>')
    .option('--id <id>', 'the key id (default k1, or the next kN not in LATCHKEY_KEYRING when it is set)')
    .action((options: { id?: string }, command: Command) => {
      const out = createOutput(Boolean(command.optsWithGlobals<GlobalOptions>().json));
      const used = keyIdsOf(process.env['LATCHKEY_KEYRING'] ?? '');
      const id = options.id ?? nextKeyId(used);
      if (!KEY_ID.test(id)) {
        throw new CliError(`--id must be 1-32 of A-Z a-z 0-9 _ -, got "${id}".`, EXIT.usage);
      }
      if (used.includes(id)) {
        throw new CliError(
          `key id "${id}" is already in LATCHKEY_KEYRING: a new key under it would not open what the old one sealed; choose another --id.`,
          EXIT.usage,
        );
      }
      const entry = `${id}:${randomBytes(32).toString('base64url')}`;
      out.result({ id, entry }, () => out.line(entry));
      if (used.length > 0 && !out.json) {
        out.warn(`To rotate, put it first: LATCHKEY_KEYRING="${id}:…,$LATCHKEY_KEYRING", then re-encrypt.`);
      }
    });
}
