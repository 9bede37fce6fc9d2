import http from 'node:http';
import { getRequestListener, serve } from '@hono/node-server';
import { type Core, createCore, toWebResponse } from '@latchkey/core';
import { latchkeyClientError } from '@latchkey/core/node';
import {
  describeHttpConformance,
  describeTransportConformance,
  fetchTarget,
  postChunked,
  running,
} from '@latchkey/test-utils';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { latchkeyHono, latchkeyRequestErrors } from './index.js';

const TOKEN = 'lk_hono_adapter_test_token_000000000000000000';

const listen = (app: Hono) =>
  running(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server);

describeHttpConformance({
  name: 'hono',
  start: async (core) => {
    const app = new Hono();
    app.route('/', latchkeyHono(core));
    const { base, close } = await listen(app);
    return fetchTarget(base, close);
  },
});

describeTransportConformance({
  name: 'hono',
  start: async (core) => {
    const app = new Hono();
    app.route('/', latchkeyHono(core));
    const server = http.createServer(getRequestListener(app.fetch, { errorHandler: latchkeyRequestErrors }));
    server.on('clientError', latchkeyClientError);
    server.listen(0, '127.0.0.1');
    return running(server);
  },
});

describe('latchkeyHono', () => {
  let closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.map((close) => close()));
    closers = [];
  });

  async function start(core: Core, setup?: (app: Hono) => void): Promise<string> {
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const app = new Hono();
    setup?.(app);
    app.route('/', latchkeyHono(core));
    const { base, close } = await listen(app);
    closers.push(close);
    return base;
  }

  const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

  it('leaves other paths to the host app', async () => {
    const base = await start(createCore(), (app) => {
      app.get('/health', (c) => c.json({ ok: true }));
    });
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true });
    const missing = await fetch(`${base}/api/v2-lookalike`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('404 Not Found');
    const org = await fetch(`${base}/api/v2/organizations/acme`, { headers: auth });
    expect(await org.json()).toMatchObject({ slug: 'acme' });
  });

  it('answers 413 for a body over core.bodyLimit, by Content-Length and when streamed', async () => {
    const base = await start(createCore({ bodyLimit: 256 }));
    const big = JSON.stringify({ slug: 'x'.repeat(300) });
    const byLength = await fetch(`${base}/api/v2/organizations/acme/projects`, {
      method: 'POST',
      headers: auth,
      body: big,
    });
    expect(byLength.status).toBe(413);
    expect(await byLength.json()).toEqual({
      error: { code: 'payload_too_large', message: 'The request body exceeds 256 bytes.', status: 413 },
    });
    const streamed = await postChunked(
      base,
      '/api/v2/organizations/acme/projects',
      auth,
      big.slice(0, 200),
      big.slice(200) + ' '.repeat(2_000_000),
      20,
    );
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ error: { code: 'payload_too_large', status: 413 } });
  });

  it('streams a core response body', async () => {
    const core = createCore();
    const streaming: Core = {
      ...core,
      async fetch() {
        async function* lines() {
          for (let i = 0; i < 3; i++) yield `{"n":${i}}\n`;
        }
        return toWebResponse({
          status: 200,
          headers: { 'content-type': 'application/x-ndjson' },
          body: lines(),
        });
      },
    };
    const base = await start(streaming);
    const response = await fetch(`${base}/api/v2/anything`);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    expect(await response.text()).toBe('{"n":0}\n{"n":1}\n{"n":2}\n');
  });

  it('cancels a streamed core response when the client goes away', async () => {
    let closed!: () => void;
    const finished = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const core = createCore();
    const endless: Core = {
      ...core,
      async fetch() {
        async function* lines() {
          try {
            for (let i = 0; ; i++) yield `{"n":${i}}\n`.repeat(1000);
          } finally {
            closed();
          }
        }
        return toWebResponse({
          status: 200,
          headers: { 'content-type': 'application/x-ndjson' },
          body: lines(),
        });
      },
    };
    const base = await start(endless);
    const controller = new AbortController();
    const response = await fetch(`${base}/api/v2/export`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await finished;
  });
});
