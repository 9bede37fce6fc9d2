/**
 * The audit keys whose signed checkpoints a restore accepts: this server's own audit key and the
 * public keys the host lists in the core option `trustedAuditKeys` (other servers, or this
 * server's earlier keys). A backup's history is taken in only under a checkpoint one of them
 * signed, so a history cannot be made up, edited or taken from another organization and then
 * signed again here as if it had been written here.
 */

import { parseEd25519PublicKey } from '../encoding/ed25519-public-key.js';
import { type AuditKey, auditKeyId } from './checkpoint/checkpoint.js';

/** A key a restore trusts, by key id. */
export interface TrustedAuditKey {
  /** The raw Ed25519 public key, base64url. */
  publicKey: string;
  /** Whether it is this server's own audit key (else the host listed it). */
  own: boolean;
}

/** Trusted keys by key id (the first 16 hex digits of the SHA-256 of the raw public key). */
export type TrustedAuditKeys = ReadonlyMap<string, TrustedAuditKey>;

/** The raw base64url form of an Ed25519 public key given raw (base64url) or as SPKI PEM. */
function rawPublicKey(text: string, index: number): string {
  // The device-key parser: refuses private keys, other algorithms and weak keys, never echoing them.
  const parsed = parseEd25519PublicKey(text);
  if (parsed.ok) return parsed.key;
  throw new TypeError(
    `trustedAuditKeys[${index}] is not an Ed25519 public key (raw 32 bytes in base64url, or SPKI PEM): ${parsed.reason}.`,
  );
}

/** The keys a restore trusts, from the core options. Throws on a listed key that is not Ed25519. */
export function toTrustedAuditKeys(
  own: AuditKey | undefined,
  listed: readonly string[] = [],
): TrustedAuditKeys {
  const keys = new Map<string, TrustedAuditKey>();
  listed.forEach((text, index) => {
    const publicKey = rawPublicKey(text, index);
    keys.set(auditKeyId(publicKey), { publicKey, own: false });
  });
  if (own) keys.set(own.keyId, { publicKey: own.publicKey, own: true });
  return keys;
}
