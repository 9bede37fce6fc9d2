import http from 'node:http';
import { type Core, createCore } from '@latchkey/core';
import { latchkeyClientError } from '@latchkey/core/node';
import { describeHttpConformance, describeTransportConformance, fetchTarget } from '@latchkey/test-utils';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { latchkeyFastify, latchkeyFrameworkErrors } from './index.js';

const TOKEN = 'lk_fastify_adapter_test_token_00000000000000';

async function serve(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

describeHttpConformance({
  name: 'fastify',
  start: async (core) => {
    const app = Fastify({ frameworkErrors: latchkeyFrameworkErrors(core) });
    await app.register(latchkeyFastify, { core });
    return fetchTarget(await serve(app), () => app.close());
  },
});

describeTransportConformance({
  name: 'fastify',
  start: async (core) => {
    const app = Fastify({
      frameworkErrors: latchkeyFrameworkErrors(core),
      clientErrorHandler: latchkeyClientError,
      forceCloseConnections: true,
    });
    await app.register(latchkeyFastify, { core });
    return { base: await serve(app), close: () => app.close() };
  },
});

describe('latchkeyFastify', () => {
  let apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.map((app) => app.close()));
    apps = [];
  });

  async function start(core: Core, setup?: (app: FastifyInstance) => void | Promise<void>): Promise<string> {
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    // A client that aborted a stream can leave its socket open; don't let close() wait for it.
    const app = Fastify({ forceCloseConnections: true });
    apps.push(app);
    await setup?.(app);
    await app.register(latchkeyFastify, { core });
    return serve(app);
  }

  const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

  it('keeps its parser and error handler to itself: the host app keeps JSON parsing and its 404', async () => {
    const base = await start(createCore(), (app) => {
      app.post('/echo', async (request) => request.body);
    });
    const echo = await fetch(`${base}/echo`, { method: 'POST', headers: auth, body: '{"a":1}' });
    expect(await echo.json()).toEqual({ a: 1 });
    const missing = await fetch(`${base}/nowhere`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    const api = await fetch(`${base}/api/v2`);
    expect(await api.json()).toMatchObject({ error: { code: 'not_found', status: 404 } });
  });

  it('hands the raw bytes to the core whatever the content type, or none', async () => {
    const base = await start(createCore());
    const spaced = await fetch(`${base}/api/v2/organizations/acme/projects`, {
      method: 'POST',
      headers: auth,
      body: '\n  {"slug":"web"}  \n',
    });
    expect(spaced.status).toBe(201);
    const { port } = new URL(base);
    const untyped = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v2/organizations/acme/projects',
          headers: { authorization: auth.authorization },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end('{"slug":"api"}');
    });
    expect(untyped).toBe(201);
    const text = await fetch(`${base}/api/v2/organizations/acme/projects`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/csv' },
      body: 'slug\nweb',
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ error: { code: 'unsupported_media_type', status: 415 } });
  });

  it('routes paths longer than Fastify’s parameter limit', async () => {
    const base = await start(createCore());
    const long = `/api/v2/organizations/acme/projects/${'p'.repeat(60)}/environments/${'e'.repeat(60)}/secrets`;
    const response = await fetch(base + long, { headers: auth });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('turns FST_ERR_CTP_BODY_TOO_LARGE into 413 payload_too_large, by Content-Length and streamed', async () => {
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
    const streamed = await fetch(`${base}/api/v2/organizations/acme/projects`, {
      method: 'POST',
      headers: auth,
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.headers.get('content-length')).not.toBeNull();
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ error: { code: 'payload_too_large', status: 413 } });
  });

  it("maps errors raised in the plugin's scope to documented bodies, and leaves unknown 4xx to the host", async () => {
    const logged: unknown[] = [];
    const base = await start(createCore(), (app) => {
      app.addHook('onRequest', async (request) => {
        const fail = request.headers['x-fail'];
        if (fail === '400')
          throw Object.assign(new Error('Fastify detail'), { statusCode: 400, code: 'FST_X' });
        if (fail === '429') throw Object.assign(new Error('slow down'), { statusCode: 429 });
        if (fail === 'crash') throw new Error('database password is hunter2');
      });
      app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
        logged.push(error);
        return reply.code(error.statusCode ?? 500).send({ host: true, message: error.message });
      });
    });
    const path = `${base}/api/v2/organizations/acme`;
    const bad = await fetch(path, { headers: { ...auth, 'x-fail': '400' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: { code: 'invalid_request', message: 'The request could not be read.', status: 400 },
    });
    const crash = await fetch(path, { headers: { ...auth, 'x-fail': 'crash' } });
    expect(crash.status).toBe(500);
    const text = await crash.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'internal_error', message: 'An internal error occurred.', status: 500 },
    });
    expect(text).not.toContain('hunter2');
    const limited = await fetch(path, { headers: { ...auth, 'x-fail': '429' } });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ host: true, message: 'slow down' });
    expect(logged).toHaveLength(1);
  });

  it('sends the headers the host’s hooks set, and runs its onSend and onResponse hooks', async () => {
    const finished: number[] = [];
    const sent: string[] = [];
    const base = await start(createCore(), (app) => {
      app.addHook('onRequest', async (_request, reply) => {
        reply.header('access-control-allow-origin', 'https://app.example');
      });
      app.addHook('onSend', async (_request, reply, payload) => {
        sent.push(String(reply.getHeader('content-type')));
        reply.header('x-host-on-send', 'yes');
        return payload;
      });
      app.addHook('onResponse', async (_request, reply) => {
        finished.push(reply.statusCode);
      });
    });
    const response = await fetch(`${base}/api/v2/organizations/acme`, { headers: auth });
    expect(response.headers.get('x-host-on-send')).toBe('yes');
    expect(sent).toEqual(['application/json; charset=utf-8']);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    await response.arrayBuffer();
    await vi.waitFor(() => expect(finished).toEqual([200]));
  });

  it('answers malformed paths under the base path with the documented body via frameworkErrors', async () => {
    const core = createCore();
    const app = Fastify({ frameworkErrors: latchkeyFrameworkErrors(core) });
    apps.push(app);
    await app.register(latchkeyFastify, { core });
    const base = await serve(app);
    const bad = await fetch(`${base}/api/v2/organizations/%E0%A4%A`, { headers: auth });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: { code: 'invalid_request', message: 'The path is not valid percent-encoding.', status: 400 },
    });
    const elsewhere = await fetch(`${base}/other/%E0%A4%A`);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toMatchObject({ code: 'FST_ERR_BAD_URL', statusCode: 400 });
  });

  it('refuses to be registered under a prefix', async () => {
    const app = Fastify();
    apps.push(app);
    await expect(app.register(latchkeyFastify, { core: createCore(), prefix: '/x' }).ready()).rejects.toThrow(
      /without a prefix/,
    );
  });

  it('streams a core response body, and stops it when the client goes away', async () => {
    let closed!: () => void;
    const finished = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const core = createCore();
    const streaming: Core = {
      ...core,
      async handle(request) {
        async function* lines(count: number) {
          try {
            for (let i = 0; i < count; i++) yield `{"n":${i}}\n`;
          } finally {
            if (count === Infinity) closed();
          }
        }
        const endless = request.url.endsWith('/endless');
        return {
          status: 200,
          headers: { 'content-type': 'application/x-ndjson' },
          body: lines(endless ? Infinity : 3),
        };
      },
    };
    const base = await start(streaming);
    const response = await fetch(`${base}/api/v2/export`);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    expect(await response.text()).toBe('{"n":0}\n{"n":1}\n{"n":2}\n');
    const controller = new AbortController();
    const endless = await fetch(`${base}/api/v2/endless`, { signal: controller.signal });
    await endless.body!.getReader().read();
    controller.abort();
    await finished;
  });
});
