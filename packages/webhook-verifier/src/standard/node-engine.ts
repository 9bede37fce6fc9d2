import { createHmac, createPublicKey, type KeyObject, timingSafeEqual, verify } from 'node:crypto';
import type { StandardEngine } from './engine.js';
import { publicKeyBytes, standardSecretKey } from './format.js';

/** HMAC-SHA256 of `<prefix><body>`, the body fed as it is (never copied into one message). */
export function standardMac(key: Uint8Array | KeyObject, prefix: string, body: string | Uint8Array): Buffer {
  const hmac = createHmac('sha256', key).update(prefix);
  return (typeof body === 'string' ? hmac.update(body, 'utf8') : hmac.update(body)).digest();
}

/** `<prefix><body>` as one buffer: Ed25519 signs a whole message, not a stream. */
export function standardContent(prefix: string, body: string | Uint8Array): Buffer {
  if (typeof body === 'string') return Buffer.from(prefix + body, 'utf8');
  return Buffer.concat([Buffer.from(prefix, 'utf8'), body]);
}

/** A node:crypto Ed25519 public key from its `whpk_` form. */
function nodePublicKey(key: string): KeyObject {
  const x = Buffer.from(publicKeyBytes(key)).toString('base64url');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
}

/** node:crypto Standard Webhooks checks: native HMAC compared in constant time, native Ed25519. */
export const nodeStandardEngine: StandardEngine<Buffer, KeyObject> = {
  importSecret(secret) {
    const key = standardSecretKey(secret);
    return key ? Buffer.from(key) : null;
  },
  importPublicKey: nodePublicKey,
  matches(secrets, publicKeys, prefix, body, signatures) {
    if (signatures.v1.length > 0) {
      for (const key of secrets) {
        const mac = standardMac(key, prefix, body);
        for (const signature of signatures.v1) if (timingSafeEqual(mac, signature)) return true;
      }
    }
    if (signatures.v1a.length > 0 && publicKeys.length > 0) {
      const content = standardContent(prefix, body);
      for (const key of publicKeys) {
        for (const signature of signatures.v1a) if (verify(null, content, key, signature)) return true;
      }
    }
    return false;
  },
};
