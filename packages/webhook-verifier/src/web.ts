/**
 * @latchkey/webhook-verifier/web: the same verifier on Web Crypto only (no node:crypto, no Buffer), for
 * Cloudflare Workers, Deno, Bun, browsers and Hono on any runtime. Verification results are identical
 * to the Node entry point; signing is asynchronous here.
 */
import type { WebhookEvent } from './event.js';
import { createVerifier, type WebhookVerifier, type WebhookVerifierOptions } from './verifier.js';
import { webEngine } from './web-engine.js';

export type { RawBody } from './body.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_PATTERN,
  SIGNING_SECRET_PREFIX,
  TIMESTAMP_PATTERN,
  WEBHOOK_HEADERS,
} from './constants.js';
export {
  isWebhookVerificationError,
  responseStatusFor,
  VERIFICATION_ERROR_CODES,
  type VerificationErrorCode,
  WebhookVerificationError,
} from './errors.js';
export { VerifiedEvent, type WebhookEvent } from './event.js';
export type { HeadersInput, HeaderValue } from './headers.js';
export {
  createMemoryReplayStore,
  type MemoryReplayStore,
  type MemoryReplayStoreOptions,
} from './memory-replay-store.js';
export type { ReplayStore } from './replay-store.js';
export type { SignatureHeaders, SignatureHeadersInput, SignInput } from './signing.js';
export type { VerifyResult, WebhookVerifier, WebhookVerifierOptions } from './verifier.js';
export { generateSigningSecret, sign, signatureHeaders } from './web-engine.js';

/** Creates a verifier backed by Web Crypto (`crypto.subtle`). Create it once and reuse it. */
export function createWebhookVerifier<T = WebhookEvent>(options: WebhookVerifierOptions): WebhookVerifier<T> {
  return createVerifier<T, Promise<CryptoKey>>(webEngine, options);
}
