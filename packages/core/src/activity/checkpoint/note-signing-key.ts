/**
 * The key that signs one log's checkpoint notes: an Ed25519 key derived from the audit key and the
 * log's origin line (HKDF-SHA256 of the audit key's seed, info = the origin line), so each
 * organization's notes have a verifier key of their own. A C2SP note signature covers the text but
 * not the key name: under one key for every organization, organization A's note with its signature
 * line renamed would verify under organization B's verifier key for any verifier that, like Go's
 * `note.Open`, checks the signature alone. The derived key stays as secret as the audit key and is
 * made again from it on every server that holds it; nothing new is stored.
 */
import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import type { AuditKey } from './checkpoint.js';

/** A log's note key: the private key and its raw 32-byte public key. */
export interface NoteSigningKey {
  privateKey: KeyObject;
  publicKey: Uint8Array;
}

/** Fixed by the format: changing it changes every organization's verifier key. */
const SALT = 'latchkey checkpoint note key v1';
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

const cache = new Map<string, NoteSigningKey>();

/** The note key of the log named `origin` under `auditKey`; cached, bounded like the key checks. */
export function noteSigningKey(auditKey: AuditKey, origin: string): NoteSigningKey {
  const id = `${auditKey.keyId} ${origin}`;
  let key = cache.get(id);
  if (!key) {
    const seed = auditKey.privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
    const derived = Buffer.from(hkdfSync('sha256', seed, SALT, origin, 32));
    const privateKey = createPrivateKey({
      key: Buffer.concat([PKCS8_ED25519_PREFIX, derived]),
      format: 'der',
      type: 'pkcs8',
    });
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    key = { privateKey, publicKey: new Uint8Array(spki.subarray(-32)) };
    if (cache.size >= 10_000) cache.clear();
    cache.set(id, key);
  }
  return key;
}
