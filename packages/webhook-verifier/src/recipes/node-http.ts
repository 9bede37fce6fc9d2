/**
 * Plain `node:http` recipe: collect the body chunks (with a size cap) into one Buffer and verify it
 * with Node's `IncomingHttpHeaders` as they are.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isWebhookVerificationError, type WebhookVerifier } from '../index.js';

/** Builds a server that receives Latchkey webhooks on `POST /webhooks/latchkey`. */
export function createNodeReceiver<T>(verifier: WebhookVerifier<T>, onEvent: (event: T) => unknown): Server {
  // #region recipe
  const MAX_BODY = 1_048_576;
  const send = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/webhooks/latchkey') return void send(res, 404, {});
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) return void send(res, 413, { received: false, code: 'payload_too_large' });
      chunks.push(chunk);
    }
    try {
      await verifier.handle(Buffer.concat(chunks), req.headers, (event) => onEvent(event.json()));
      send(res, 200, { received: true });
    } catch (error) {
      if (!isWebhookVerificationError(error)) return void send(res, 500, { received: false });
      send(res, error.status, { received: false, code: error.code });
    }
  }
  // #endregion recipe

  return createServer((req, res) => void receive(req, res));
}
