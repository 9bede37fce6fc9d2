/**
 * @latchkey/webhook-verifier: verify Latchkey audit webhook deliveries on Node (node:crypto), and sign
 * them on the sending side with the very same primitive. For runtimes without node:crypto, import
 * `@latchkey/webhook-verifier/web`; for a replay cache shared by several instances, `/redis`.
 */

import type { WebhookEvent } from './event.js';
import { nodeEngine } from './node-engine.js';
import { nodeStandardEngine } from './standard/node-engine.js';
import { createVerifier, type WebhookVerifier, type WebhookVerifierOptions } from './verifier.js';

export * from './common.js';
export { generateSigningSecret, sign, signatureHeaders } from './node-engine.js';
export {
  generateSigningKeyPair,
  generateStandardSecret,
  publicKeyOf,
  type StandardSignatureHeaders,
  type StandardSignInput,
  standardSignatureHeaders,
} from './standard/sign.js';

/**
 * Creates a verifier backed by node:crypto. Create it once and reuse it: it holds the keys and, by
 * default, an in-memory replay cache.
 *
 * @example
 * const verifier = createWebhookVerifier({ secret: process.env.LATCHKEY_WEBHOOK_SECRET! });
 * // standard-webhooks-ed25519: public keys only
 * const byKey = createWebhookVerifier({ publicKey: ['whpk_...'] });
 * const event = await verifier.verify(rawBody, req.headers);
 */
export function createWebhookVerifier<T = WebhookEvent>(options: WebhookVerifierOptions): WebhookVerifier<T> {
  return createVerifier(nodeEngine, nodeStandardEngine, options);
}
