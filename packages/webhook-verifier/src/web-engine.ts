import { bodyBytes, normalizeBody } from './body.js';
import { SIGNING_SECRET_PREFIX } from './constants.js';
import { toBase64Url, toHex } from './format.js';
import type { SignatureHeaders, SignatureHeadersInput, SignInput } from './signing.js';
import { signAttempt, signingSecret, timestampString } from './signing.js';
import type { HmacEngine } from './verifier.js';

const encoder = new TextEncoder();
const ALGORITHM = { name: 'HMAC', hash: 'SHA-256' } as const;

function importKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), ALGORITHM, false, ['sign', 'verify']);
}

// Web Crypto has no streaming HMAC, so the message is built once.
function message(timestamp: string, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(timestamp + '.');
  const bytes = bodyBytes(body);
  const out = new Uint8Array(prefix.length + bytes.length);
  out.set(prefix, 0);
  out.set(bytes, prefix.length);
  return out;
}

/** Web Crypto HMAC; `subtle.verify` does the constant-time comparison. */
export const webEngine: HmacEngine<Promise<CryptoKey>> = {
  synchronous: false,
  importKey,
  async matches(keys, timestamp, body, expected) {
    const data = message(timestamp, body);
    for (const key of keys) {
      if (await crypto.subtle.verify('HMAC', await key, expected, data)) return true;
    }
    return false;
  },
};

/** Web Crypto version of `sign`: `sha256=` + hex HMAC-SHA256 of `<timestamp>.<body>`. */
export async function sign(input: SignInput): Promise<string> {
  const key = await importKey(signingSecret(input.secret));
  const data = message(timestampString(input.timestamp), normalizeBody(input.body));
  return 'sha256=' + toHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, data)));
}

/** Web Crypto version of `signatureHeaders`. */
export async function signatureHeaders(input: SignatureHeadersInput): Promise<SignatureHeaders> {
  return signAttempt(input, sign);
}

/** A new signing secret: `whsec_` + 32 random bytes in base64url. */
export function generateSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}
