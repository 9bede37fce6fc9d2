import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { eventBody, SECRET } from '../../test/helpers.js';
import {
  createWebhookVerifier,
  signatureHeaders,
  type WebhookEvent,
  type WebhookVerifier,
} from '../index.js';
import * as web from '../web.js';
import { createExpressReceiver } from './express.js';
import { latchkeyWebhooks } from './fastify.js';
import { createHonoReceiver } from './hono.js';
import { createNodeReceiver } from './node-http.js';

type OnEvent = (event: WebhookEvent) => unknown;
interface Running {
  url: string;
  close(): Promise<void>;
}

const listen = (server: Server): Promise<Running> =>
  new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/webhooks/latchkey`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });

const receivers: [string, (onEvent: OnEvent) => Promise<Running>][] = [
  ['node:http', (onEvent) => listen(createNodeReceiver(createWebhookVerifier({ secret: SECRET }), onEvent))],
  [
    'Express',
    (onEvent) =>
      listen(createServer(createExpressReceiver(createWebhookVerifier({ secret: SECRET }), onEvent))),
  ],
  [
    'Fastify',
    async (onEvent) => {
      const app = Fastify();
      await app.register(latchkeyWebhooks(createWebhookVerifier({ secret: SECRET }), onEvent));
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}/webhooks/latchkey`, close: () => app.close() };
    },
  ],
  [
    'Hono on @hono/node-server',
    (onEvent) =>
      new Promise((resolve) => {
        const app = createHonoReceiver(web.createWebhookVerifier({ secret: SECRET }), onEvent);
        const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
          resolve({
            url: `http://127.0.0.1:${info.port}/webhooks/latchkey`,
            close: () => new Promise((done) => server.close(() => done())),
          });
        });
      }),
  ],
];

const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

// One conformance suite, over a real port, for every recipe.
describe.each(receivers)('recipe: %s', (_name, start) => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function startWith(onEvent: OnEvent = () => {}) {
    running = await start(onEvent);
    return running.url;
  }

  it('accepts a delivery once, keeping the exact bytes (pretty JSON, non-ASCII, trailing newline)', async () => {
    const seen: WebhookEvent[] = [];
    const url = await startWith((event) => seen.push(event));
    const body = `{\n  "id": "evt_recipe",\n  "type": "push_applied",\n  "note": "héllo ✓"\n}\n`;
    const headers = signatureHeaders({ secret: SECRET, body, eventId: 'evt_recipe' });
    const first = await post(url, body, { ...headers, 'content-type': 'application/json; charset=utf-8' });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });
    expect(seen).toEqual([{ id: 'evt_recipe', type: 'push_applied', note: 'héllo ✓' }]);

    const again = await post(url, body, headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: false, code: 'replayed' });
    expect(seen).toHaveLength(1);
  });

  it('keeps the raw body whatever the content type', async () => {
    const url = await startWith();
    const body = eventBody('evt_text');
    const response = await post(url, body, {
      ...signatureHeaders({ secret: SECRET, body, eventId: 'evt_text' }),
      'content-type': 'text/plain',
    });
    expect(response.status).toBe(200);
  });

  it('answers 401 to a tampered body and 400 to missing headers, without calling the handler', async () => {
    const seen: unknown[] = [];
    const url = await startWith((event) => seen.push(event));
    const body = eventBody('evt_tampered');
    const headers = signatureHeaders({ secret: SECRET, body, eventId: 'evt_tampered' });
    const tampered = await post(url, body.replace('acme', 'acmf'), headers);
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toEqual({ received: false, code: 'signature_mismatch' });
    const bare = await post(url, body, {});
    expect(bare.status).toBe(400);
    expect(await bare.json()).toEqual({ received: false, code: 'missing_header' });
    expect(seen).toEqual([]);
  });

  it('answers 500 when the handler fails and accepts the sender’s retry', async () => {
    let failures = 1;
    const seen: string[] = [];
    const url = await startWith((event) => {
      if (failures-- > 0) throw new Error('database down');
      seen.push(event.id);
    });
    const body = eventBody('evt_retry');
    const first = await post(url, body, signatureHeaders({ secret: SECRET, body, eventId: 'evt_retry' }));
    expect(first.status).toBe(500);
    // The sender signs every attempt afresh.
    const retry = await post(url, body, signatureHeaders({ secret: SECRET, body, eventId: 'evt_retry' }));
    expect(retry.status).toBe(200);
    expect(seen).toEqual(['evt_retry']);
  });
});

describe('recipe details', () => {
  it('Hono, in process through app.request()', async () => {
    const verifier: WebhookVerifier = web.createWebhookVerifier({ secret: SECRET });
    const app = createHonoReceiver(verifier, () => {});
    const body = eventBody('evt_in_process');
    const response = await app.request('/webhooks/latchkey', {
      method: 'POST',
      body,
      headers: await web.signatureHeaders({ secret: SECRET, body, eventId: 'evt_in_process' }),
    });
    expect(response.status).toBe(200);
  });

  it('Fastify: other routes keep the JSON parser (the raw parser is encapsulated)', async () => {
    const app = Fastify();
    await app.register(latchkeyWebhooks(createWebhookVerifier({ secret: SECRET }), () => {}));
    app.post('/other', async (request) => ({ parsed: request.body }));
    const response = await app.inject({ method: 'POST', url: '/other', payload: { a: 1 } });
    expect(response.json()).toEqual({ parsed: { a: 1 } });
    await app.close();
  });

  it('node:http: refuses a body over the cap with 413', async () => {
    const running = await listen(createNodeReceiver(createWebhookVerifier({ secret: SECRET }), () => {}));
    try {
      const response = await post(running.url, 'x'.repeat(1_048_577), {});
      expect(response.status).toBe(413);
    } finally {
      await running.close();
    }
  });
});
