import { WebhookVerificationError } from './errors.js';

/**
 * The raw request body exactly as received. A Node `Buffer` is a `Uint8Array`, so it is accepted too.
 * Never pass a parsed object or a re-serialised string: the signature covers the original bytes.
 */
export type RawBody = string | Uint8Array | ArrayBuffer;

/** Narrows the body to string or bytes; anything else (a parsed JSON object, usually) is `invalid_body`. */
export function normalizeBody(body: unknown): string | Uint8Array {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  // An ArrayBuffer from another realm (vm context, some test environments) fails instanceof.
  if (Object.prototype.toString.call(body) === '[object ArrayBuffer]')
    return new Uint8Array(body as ArrayBuffer);
  const got = body === null ? 'null' : typeof body;
  throw new WebhookVerificationError(
    'invalid_body',
    `body must be the raw request body (string, Buffer, Uint8Array or ArrayBuffer), got ${got}; ` +
      'make sure no JSON body parser ran before the verifier',
  );
}

const utf8Encoder = new TextEncoder();

/** UTF-8 bytes of a string body, or the bytes themselves. */
export function bodyBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? utf8Encoder.encode(body) : body;
}
