import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { normalizeBody } from './body.js';
import { SIGNING_SECRET_PREFIX } from './constants.js';
import type { SignatureHeaders, SignatureHeadersInput, SignInput } from './signing.js';
import { signAttempt, signingSecret, timestampString } from './signing.js';
import type { HmacEngine } from './verifier.js';

function mac(key: Buffer | string, timestamp: string, body: string | Uint8Array): Buffer {
  // Separate updates: a large body is never copied into a concatenated message.
  const hmac = createHmac('sha256', key).update(timestamp + '.');
  return (typeof body === 'string' ? hmac.update(body, 'utf8') : hmac.update(body)).digest();
}

/** node:crypto HMAC: synchronous, native, compared with `timingSafeEqual` on the decoded bytes. */
export const nodeEngine: HmacEngine<Buffer> = {
  synchronous: true,
  importKey: (secret) => Buffer.from(secret, 'utf8'),
  matches(keys, timestamp, body, expected) {
    for (const key of keys) {
      if (timingSafeEqual(mac(key, timestamp, body), expected)) return true;
    }
    return false;
  },
};

/**
 * The `X-Service-Signature` value for a body: `sha256=` + hex HMAC-SHA256 of `<timestamp>.<body>`.
 * The sender uses this very function, so sender and receiver cannot drift.
 */
export function sign(input: SignInput): string {
  const key = signingSecret(input.secret);
  const body = normalizeBody(input.body);
  return 'sha256=' + mac(key, timestampString(input.timestamp), body).toString('hex');
}

/** The three delivery headers for one attempt, signed with the current (or given) time. */
export function signatureHeaders(input: SignatureHeadersInput): SignatureHeaders {
  return signAttempt(input, sign);
}

/** A new signing secret: `whsec_` + 32 random bytes in base64url. */
export function generateSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + randomBytes(32).toString('base64url');
}
