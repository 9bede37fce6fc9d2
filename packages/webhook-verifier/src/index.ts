/**
 * @latchkey/webhook-verifier: verify Latchkey audit webhook deliveries on Node (node:crypto), and sign
 * them on the sending side with the very same primitive. For runtimes without node:crypto, import
 * `@latchkey/webhook-verifier/web`; for a replay cache shared by several instances, `/redis`.
 */

import type { WebhookEvent } from './event.js';
import { nodeEngine } from './node-engine.js';
import { createVerifier, type WebhookVerifier, type WebhookVerifierOptions } from './verifier.js';

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
export { generateSigningSecret, sign, signatureHeaders } from './node-engine.js';
export type { ReplayStore } from './replay-store.js';
export type { SignatureHeaders, SignatureHeadersInput, SignInput } from './signing.js';
export type { VerifyResult, WebhookVerifier, WebhookVerifierOptions } from './verifier.js';

/**
 * Creates a verifier backed by node:crypto. Create it once and reuse it: it holds the keys and, by
 * default, an in-memory replay cache.
 *
 * @example
 * const verifier = createWebhookVerifier({ secret: process.env.LATCHKEY_WEBHOOK_SECRET! });
 * const event = await verifier.verify(rawBody, req.headers);
 */
export function createWebhookVerifier<T = WebhookEvent>(options: WebhookVerifierOptions): WebhookVerifier<T> {
  return createVerifier<T, Buffer>(nodeEngine, options);
}
