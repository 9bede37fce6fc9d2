/**
 * The log key `activity prove` checks signatures with: `--public-key` (the audit public key, raw
 * base64url or SPKI PEM, as `activity verify` takes it), else the verifier key `activity witness`
 * pinned for the organization on this server.
 */
import { createPublicKey } from 'node:crypto';
import { CliError, EXIT } from './exit-codes.js';

/** A pinned log key: the audit public key for the JSON checkpoint, and its raw bytes for the note. */
export interface LogKey {
  /** Raw base64url, or SPKI PEM: what `verifyCheckpoint` takes. */
  publicKey: string;
  raw: Uint8Array;
  /** The pinned verifier key, when the key came from the witness state. */
  verifierKey?: string;
  /** Where it came from, for the printed result. */
  source: 'option' | 'witness';
}

/** The raw key of `--public-key`, or a usage error. */
export function fromPublicKeyOption(publicKey: string): LogKey {
  try {
    const raw = publicKey.includes('BEGIN PUBLIC KEY')
      ? createPublicKey(publicKey).export({ format: 'der', type: 'spki' }).subarray(-32)
      : Buffer.from(publicKey.trim(), 'base64url');
    if (raw.length !== 32) throw new Error('not 32 bytes');
    return { publicKey, raw: new Uint8Array(raw), source: 'option' };
  } catch {
    throw new CliError('--public-key is not an Ed25519 public key (raw base64url or SPKI PEM).', EXIT.usage);
  }
}

/** The raw key of a C2SP Ed25519 verifier key (`<name>+<hash>+<base64(0x01 || key)>`). */
export function fromVerifierKey(verifierKey: string): LogKey {
  const encoded = Buffer.from(verifierKey.split('+').slice(2).join('+'), 'base64');
  if (encoded.length !== 33 || encoded[0] !== 0x01)
    throw new CliError(`The pinned verifier key is not an Ed25519 key: ${verifierKey}`);
  const raw = new Uint8Array(encoded.subarray(1));
  return { publicKey: Buffer.from(raw).toString('base64url'), raw, verifierKey, source: 'witness' };
}

/** The bytes of a base64 hash the server sent; a malformed one fails verification (exit 5). */
export function hashBytes(text: string, what: string): Uint8Array {
  const bytes = /^[A-Za-z0-9+/]+=*$/.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0);
  if (bytes.length !== 32) throw new CliError(`${what} is not a base64 SHA-256 hash.`, EXIT.verification);
  return new Uint8Array(bytes);
}
