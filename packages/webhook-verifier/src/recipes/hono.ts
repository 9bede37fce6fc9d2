/**
 * Hono recipe, on Web Crypto so it runs on Node, Workers, Deno and Bun alike. `c.req.arrayBuffer()`
 * gives the exact bytes; never verify `await c.req.json()` re-serialised.
 */
import { Hono } from 'hono';
import { isWebhookVerificationError, type WebhookVerifier } from '../web.js';

/** Builds a Hono app that receives Latchkey webhooks on `POST /webhooks/latchkey`. */
export function createHonoReceiver<T>(verifier: WebhookVerifier<T>, onEvent: (event: T) => unknown): Hono {
  const app = new Hono();
  // #region recipe
  app.post('/webhooks/latchkey', async (c) => {
    try {
      const body = await c.req.arrayBuffer();
      await verifier.handle(body, c.req.raw.headers, (event) => onEvent(event.json()));
      return c.json({ received: true }, 200);
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error; // a 500: the sender retries
      return c.json({ received: false, code: error.code }, error.status as 200 | 400 | 401);
    }
  });
  // #endregion recipe
  return app;
}
