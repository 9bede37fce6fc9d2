/**
 * Fastify 5 recipe: an encapsulated plugin whose only content-type parser hands over the raw Buffer,
 * so the rest of the app keeps Fastify's JSON parser.
 */
import type { FastifyPluginAsync } from 'fastify';
import { isWebhookVerificationError, type WebhookVerifier } from '../index.js';

/** Registers `POST /webhooks/latchkey`; use it with `app.register(...)`. */
export function latchkeyWebhooks<T>(
  verifier: WebhookVerifier<T>,
  onEvent: (event: T) => unknown,
): FastifyPluginAsync {
  // #region recipe
  return async (app) => {
    // In this plugin's scope only: every body arrives as the raw Buffer that was signed.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_req, body, done) => {
      done(null, body);
    });
    app.post('/webhooks/latchkey', async (request, reply) => {
      try {
        await verifier.handle(request.body as Buffer, request.headers, (event) => onEvent(event.json()));
        return reply.code(200).send({ received: true });
      } catch (error) {
        if (!isWebhookVerificationError(error)) throw error; // a 500: the sender retries
        return reply.code(error.status).send({ received: false, code: error.code });
      }
    });
  };
  // #endregion recipe
}
