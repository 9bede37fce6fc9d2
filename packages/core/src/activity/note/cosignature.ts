/**
 * Witness cosignatures in the C2SP tlog-cosignature v1 format (https://c2sp.org/tlog-cosignature):
 * a note signature line whose key hash is SHA-256(name || 0x0A || 0x04 || Ed25519 key)[:4] and
 * whose value after it is an 8-byte big-endian POSIX timestamp and an Ed25519 signature over
 * `cosignature/v1\ntime <timestamp>\n` followed by the whole checkpoint body.
 */
import { ALG_COSIGNATURE_V1, keyHash, sameBytes, verifyEd25519 } from './note-key.js';
import type { NoteSignature } from './signed-note.js';

/** A witness: its key name and raw Ed25519 public key. */
export interface WitnessKey {
  name: string;
  publicKey: Uint8Array;
}

const encoder = new TextEncoder();
/** The largest timestamp the format allows (2^63 - 1), beyond which a cosignature is refused. */
const MAX_TIMESTAMP = (1n << 63n) - 1n;

/** The bytes a v1 cosignature signs, for a checkpoint body and a timestamp in seconds. */
export function cosignedMessage(body: string, timestamp: bigint): Uint8Array {
  return encoder.encode(`cosignature/v1\ntime ${timestamp}\n${body}`);
}

/** A cosignature's timestamp and Ed25519 signature, or null when the value is not 8 + 64 bytes. */
function splitCosignature(signature: NoteSignature): { timestamp: bigint; signature: Uint8Array } | null {
  if (signature.signature.length !== 72) return null;
  const timestamp = new DataView(signature.signature.buffer, signature.signature.byteOffset, 8).getBigUint64(
    0,
  );
  if (timestamp > MAX_TIMESTAMP) return null;
  return { timestamp, signature: signature.signature.slice(8) };
}

/**
 * The timestamp (seconds) of `signature` when it is `witness`'s valid v1 cosignature of `body`;
 * null otherwise (another name or key hash, a malformed value, a signature that does not verify).
 */
export async function verifyCosignature(
  body: string,
  signature: NoteSignature,
  witness: WitnessKey,
): Promise<bigint | null> {
  if (signature.name !== witness.name) return null;
  if (!sameBytes(signature.keyHash, await keyHash(witness.name, ALG_COSIGNATURE_V1, witness.publicKey)))
    return null;
  const parts = splitCosignature(signature);
  if (!parts) return null;
  const ok = await verifyEd25519(witness.publicKey, cosignedMessage(body, parts.timestamp), parts.signature);
  return ok ? parts.timestamp : null;
}

/** The signature line value's bytes after the key hash, for a timestamp and an Ed25519 signature. */
export function cosignatureValue(timestamp: bigint, signature: Uint8Array): Uint8Array {
  const out = new Uint8Array(72);
  new DataView(out.buffer).setBigUint64(0, timestamp);
  out.set(signature, 8);
  return out;
}
