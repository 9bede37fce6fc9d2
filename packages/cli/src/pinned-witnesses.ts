/**
 * The witness keys `activity prove` checks cosignatures with: `--witness-key NAME+HASH+KEY`, the
 * C2SP verifier key of a tlog-cosignature/v1 witness (algorithm 0x04), given out of band, as the
 * log's key is. The server's own list of who cosigned is never believed: only lines these keys
 * verify are printed as cosignatures, the rest are counted.
 */
import { createHash } from 'node:crypto';
import { CliError, EXIT } from './exit-codes.js';

/** Algorithm byte of a C2SP tlog-cosignature/v1 key. */
const ALG_COSIGNATURE_V1 = 0x04;

/** Commander's collector for a repeatable option. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * Each `--witness-key`, checked for form (name, key hash, algorithm 0x04, 32-byte key); a usage
 * error names the first that is not one. What the key is worth (a weak key) `openCheckpoint` says.
 */
export function pinnedWitnesses(values: readonly string[]): string[] {
  for (const value of values) {
    // The base64 key may itself hold `+`: split at the first two only.
    const first = value.indexOf('+');
    const second = value.indexOf('+', first + 1);
    const name = first > 0 ? value.slice(0, first) : '';
    const hash = value.slice(first + 1, second);
    const bytes = second > first ? Buffer.from(value.slice(second + 1), 'base64') : Buffer.alloc(0);
    const expected =
      name && bytes.length === 33
        ? createHash('sha256').update(`${name}\n`).update(bytes).digest().subarray(0, 4).toString('hex')
        : '';
    if (!name || bytes[0] !== ALG_COSIGNATURE_V1 || hash !== expected)
      throw new CliError(
        `--witness-key ${value} is not a witness's verifier key (<name>+<hash>+<base64(0x04 || key)>, as \`activity witness-key\` prints it).`,
        EXIT.usage,
      );
  }
  return [...values];
}
