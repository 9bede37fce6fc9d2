/**
 * @latchkey/webhook-verifier/web: the same verifier on Web Crypto only (no node:crypto, no Buffer), for
 * Cloudflare Workers, Deno, Bun, browsers and Hono on any runtime. Verification results are identical
 * to the Node entry point; signing is asynchronous here.
 */
import type { WebhookEvent } from './event.js';
import { webStandardEngine } from './standard/web-engine.js';
import { createVerifier, type WebhookVerifier, type WebhookVerifierOptions } from './verifier.js';
import { webEngine } from './web-engine.js';

export * from './common.js';
export { generateSigningSecret, sign, signatureHeaders } from './web-engine.js';

/** Creates a verifier backed by Web Crypto (`crypto.subtle`). Create it once and reuse it. */
export function createWebhookVerifier<T = WebhookEvent>(options: WebhookVerifierOptions): WebhookVerifier<T> {
  return createVerifier(webEngine, webStandardEngine, options);
}
