/**
 * Express 5 recipe: `express.raw` on the webhook route only, so the body stays the exact bytes that
 * were signed while the rest of the app may keep `express.json()`.
 */
import express from 'express';
import { isWebhookVerificationError, type WebhookVerifier } from '../index.js';

/** Builds an app that receives Latchkey webhooks on `POST /webhooks/latchkey`. */
export function createExpressReceiver<T>(
  verifier: WebhookVerifier<T>,
  onEvent: (event: T) => unknown,
): express.Express {
  const app = express();
  // #region recipe
  app.post('/webhooks/latchkey', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    try {
      // handle() verifies, runs the callback, and releases the event id if the callback throws.
      await verifier.handle(req.body, req.headers, (event) => onEvent(event.json()));
      res.status(200).json({ received: true });
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error; // a 500: the sender retries
      res.status(error.status).json({ received: false, code: error.code });
    }
  });
  // #endregion recipe
  return app;
}
