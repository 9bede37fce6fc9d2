/** What both entry points (Node and Web Crypto) export alike; each adds its own engine's functions. */
export type { RawBody } from './body.js';
export {
  type ChainLink,
  type ChainWitness,
  type ContinuityIssue,
  createChainWitness,
} from './chain-witness.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_PATTERN,
  SIGNING_SECRET_PREFIX,
  TIMESTAMP_PATTERN,
  WEBHOOK_HEADERS,
} from './constants.js';
export type { DeliveredTree } from './delivered-tree.js';
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
export {
  PUBLIC_KEY_PREFIX,
  SIGNATURE_SCHEMES,
  type SignatureScheme,
  STANDARD_HEADERS,
} from './standard/format.js';
export type { VerifyResult, WebhookVerifier, WebhookVerifierOptions } from './verifier.js';
