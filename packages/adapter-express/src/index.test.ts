import { type Core, createCore } from '@latchkey/core';
import { latchkeyClientError } from '@latchkey/core/node';
import {
  describeHttpConformance,
  describeTransportConformance,
  fetchTarget,
  postChunked,
  running,
} from '@latchkey/test-utils';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { latchkeyExpress } from './index.js';

const handleName = (app: Express) => (app as unknown as { handle: () => void }).handle.name;

const TOKEN = 'lk_express_adapter_test_token_00000000000000';

const serve = (app: Express) => running(app.listen(0, '127.0.0.1'));

describeHttpConformance({
  name: 'express',
  start: async (core) => {
    const app = express();
    app.use(latchkeyExpress(core));
    const { base, close } = await serve(app);
    return fetchTarget(base, close);
  },
});

describeTransportConformance({
  name: 'express',
  start: async (core) => {
    const app = express();
    app.use(latchkeyExpress(core));
    const server = app.listen(0, '127.0.0.1');
    server.on('clientError', latchkeyClientError);
    return running(server);
  },
});

describe('latchkeyExpress', () => {
  let closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.map((close) => close()));
    closers = [];
  });

  async function start(core: Core, setup: (app: Express) => void): Promise<string> {
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const app = express();
    setup(app);
    const { base, close } = await serve(app);
    closers.push(close);
    return base;
  }

  const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

  it('calls next() for paths outside the base path', async () => {
    const core = createCore();
    const base = await start(core, (app) => {
      app.use(latchkeyExpress(core));
      app.get('/health', (_req, res) => {
        res.json({ ok: true });
      });
      app.get('/api/v2-lookalike', (_req, res) => {
        res.send('host');
      });
    });
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true });
    expect(await (await fetch(`${base}/api/v2-lookalike`)).text()).toBe('host');
    const missing = await fetch(`${base}/nowhere`);
    expect(missing.status).toBe(404);
    // Express's own 404, not Latchkey's JSON error.
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
    const api = await fetch(`${base}/api/v2/nowhere`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: { code: 'not_found', status: 404 } });
  });

  it('passes the original URL when mounted under a path prefix that is part of the base path', async () => {
    const core = createCore({ basePath: '/platform/api/v2' });
    const base = await start(core, (app) => {
      app.use('/platform', latchkeyExpress(core));
    });
    const org = await fetch(`${base}/platform/api/v2/organizations/acme?`, { headers: auth });
    expect(org.status).toBe(200);
    expect(await org.json()).toMatchObject({ slug: 'acme' });
  });

  it('refuses with 400, not a re-serialised body, when express.json() ran first', async () => {
    const core = createCore();
    const base = await start(core, (app) => {
      app.use(express.json());
      app.use(latchkeyExpress(core));
    });
    const response = await fetch(`${base}/api/v2/organizations/acme/projects`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ slug: 'web' }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string; status: number } };
    expect(body.error).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(body.error.message).toMatch(/before any body parser/);
    expect(await core.store.projects.list((await core.store.organizations.getBySlug('acme'))!.id)).toEqual(
      [],
    );
    // Requests without a body are unaffected.
    expect((await fetch(`${base}/api/v2/organizations/acme`, { headers: auth })).status).toBe(200);
  });

  it('leaves body parsing to the host app after it', async () => {
    const core = createCore();
    const base = await start(core, (app) => {
      app.use(latchkeyExpress(core));
      app.use(express.json());
      app.post('/echo', (req, res) => {
        res.json(req.body);
      });
    });
    const created = await fetch(`${base}/api/v2/organizations/acme/projects`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ slug: 'web' }),
    });
    expect(created.status).toBe(201);
    const echo = await fetch(`${base}/echo`, { method: 'POST', headers: auth, body: '{"a":1}' });
    expect(await echo.json()).toEqual({ a: 1 });
  });

  it('answers 413 for a body over core.bodyLimit, by Content-Length and when streamed', async () => {
    const core = createCore({ bodyLimit: 256 });
    const base = await start(core, (app) => {
      app.use(latchkeyExpress(core));
    });
    const big = JSON.stringify({ slug: 'x'.repeat(300) });
    const byLength = await fetch(`${base}/api/v2/organizations/acme/projects`, {
      method: 'POST',
      headers: auth,
      body: big,
    });
    expect(byLength.status).toBe(413);
    expect(await byLength.json()).toMatchObject({ error: { code: 'payload_too_large', status: 413 } });
    const streamed = await postChunked(
      base,
      '/api/v2/organizations/acme/projects',
      auth,
      big.slice(0, 200),
      big.slice(200) + ' '.repeat(2_000_000),
    );
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ error: { code: 'payload_too_large', status: 413 } });
  });

  it('takes the fast path only when it is the first middleware, mounted at the root', async () => {
    const core = createCore();
    const seen: string[] = [];
    const apps: Express[] = [];
    const first = await start(core, (app) => {
      apps.push(app);
      app.use(latchkeyExpress(core));
      app.use((req, res) =>
        res.send(
          `host ${Object.getPrototypeOf(req) === (req.app as unknown as { request: object }).request}`,
        ),
      );
    });
    const fast = await fetch(`${first}/api/v2/organizations/acme`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(fast.status).toBe(200);
    expect(fast.headers.get('x-powered-by')).toBe('Express');
    expect(await (await fetch(`${first}/elsewhere`)).text()).toBe('host true');
    expect(handleName(apps[0]!)).toBe('fastHandle');

    const guarded = createCore();
    const behind = await start(guarded, (app) => {
      apps.push(app);
      app.use((req, res, next) => {
        seen.push(req.url);
        res.setHeader('x-host-middleware', 'ran');
        next();
      });
      app.use(latchkeyExpress(guarded));
    });
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${behind}/api/v2/organizations/acme`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-host-middleware')).toBe('ran');
    }
    expect(seen).toHaveLength(3);
    expect(handleName(apps[1]!)).not.toBe('fastHandle');

    const mounted = createCore();
    const elsewhere = await start(mounted, (app) => {
      app.use('/other', latchkeyExpress(mounted));
      app.use((_req, res) => res.status(404).send('host 404'));
    });
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${elsewhere}/api/v2/organizations/acme`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(await response.text()).toBe('host 404');
    }
  });
});
