import { bodyBytes } from '../body.js';
import type { StandardEngine } from './engine.js';
import { publicKeyBytes, standardSecretKey } from './format.js';

const encoder = new TextEncoder();

function content(prefix: string, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(prefix);
  const bytes = bodyBytes(body);
  const out = new Uint8Array(head.length + bytes.length);
  out.set(head, 0);
  out.set(bytes, head.length);
  return out;
}

const copy = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

/** Web Crypto Standard Webhooks checks: `subtle.verify` for HMAC (constant time) and Ed25519. */
export const webStandardEngine: StandardEngine<Promise<CryptoKey>, Promise<CryptoKey>> = {
  importSecret(secret) {
    const key = standardSecretKey(secret);
    if (!key) return null;
    return crypto.subtle.importKey('raw', copy(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  },
  importPublicKey(key) {
    const raw = copy(publicKeyBytes(key));
    return crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
  },
  async matches(secrets, publicKeys, prefix, body, signatures) {
    const data = content(prefix, body);
    for (const key of signatures.v1.length > 0 ? secrets : []) {
      for (const signature of signatures.v1) {
        if (await crypto.subtle.verify('HMAC', await key, copy(signature), data)) return true;
      }
    }
    for (const key of signatures.v1a.length > 0 ? publicKeys : []) {
      for (const signature of signatures.v1a) {
        if (await crypto.subtle.verify('Ed25519', await key, copy(signature), data)) return true;
      }
    }
    return false;
  },
};
