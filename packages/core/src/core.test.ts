import { describe, expect, it } from 'vitest';
import { createCore } from './core.js';
import { createMemoryStore } from './memory/index.js';
import type { CoreRequest } from './model/core-request.js';

const get = (url: string, headers: CoreRequest['headers'] = {}): CoreRequest => ({
  method: 'GET',
  url,
  headers,
});
const bodyOf = (response: { body: unknown }) => JSON.parse(response.body as string);

describe('createCore', () => {
  it('lets the host app replace authentication', async () => {
    const core = createCore({
      authenticate: (request) =>
        request.headers['x-user'] === 'alice' ? { organization: 'acme', user: 'alice' } : null,
    });
    await core.bootstrap({
      organization: 'acme',
      user: 'alice',
      token: 'lk_unused_when_authenticate_is_set_000000',
    });
    expect((await core.handle(get('/api/v2/organizations/acme', { 'x-user': 'alice' }))).status).toBe(200);
    expect((await core.handle(get('/api/v2/organizations/acme', { 'x-user': 'mallory' }))).status).toBe(401);
    // GET /me answers the host's identity, so a dashboard signed in by cookies needs no token.
    const me = await core.handle(get('/api/v2/me', { 'x-user': 'alice' }));
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body as string)).toMatchObject({
      user: 'alice',
      role: 'owner',
      organization: { slug: 'acme' },
    });
    expect((await core.handle(get('/api/v2/me', { 'x-user': 'mallory' }))).status).toBe(401);
    const bearer = await core.handle(
      get('/api/v2/organizations/acme', {
        authorization: 'Bearer lk_unused_when_authenticate_is_set_000000',
      }),
    );
    expect(bearer.status).toBe(401);
  });

  it('refuses a revoked token', async () => {
    const core = createCore();
    await core.bootstrap({
      organization: 'acme',
      user: 'admin',
      token: 'lk_admin_token_for_revocation_test_000000',
    });
    const headers = {
      authorization: 'Bearer lk_admin_token_for_revocation_test_000000',
      'content-type': 'application/json',
    };
    const created = await core.handle({
      method: 'POST',
      url: '/api/v2/organizations/acme/tokens',
      headers,
      body: JSON.stringify({ user: 'admin', name: 'ci' }),
    });
    const { id, token } = bodyOf(created);
    expect(created.status).toBe(201);
    expect(
      (await core.handle(get('/api/v2/organizations/acme', { authorization: `Bearer ${token}` }))).status,
    ).toBe(200);
    const revoked = await core.handle({
      method: 'POST',
      url: `/api/v2/organizations/acme/tokens/${id}/revoke`,
      headers,
    });
    expect(bodyOf(revoked).revoked_at).toEqual(expect.any(String));
    const after = await core.handle(get('/api/v2/organizations/acme', { authorization: `Bearer ${token}` }));
    expect(bodyOf(after).error.code).toBe('unauthenticated');
  });

  it('turns an unexpected failure into a 500 that says nothing, and logs without secrets', async () => {
    const store = createMemoryStore();
    const logged: unknown[] = [];
    const core = createCore({ store, logger: { error: (message, meta) => logged.push({ message, meta }) } });
    await core.bootstrap({
      organization: 'acme',
      user: 'admin',
      token: 'lk_admin_token_for_failure_test_000000000',
    });
    store.projects.list = async () => {
      throw new Error('connection to db at secret-host refused');
    };
    const response = await core.handle(
      get('/api/v2/organizations/acme/projects', {
        authorization: 'Bearer lk_admin_token_for_failure_test_000000000',
      }),
    );
    expect(response.status).toBe(500);
    expect(bodyOf(response)).toEqual({
      error: { code: 'internal_error', message: 'An internal error occurred.', status: 500 },
    });
    expect(JSON.stringify(logged)).not.toContain('lk_admin_token');
    expect(JSON.stringify(logged)).toContain('listProjects');
  });

  it('serves WHATWG requests through core.fetch', async () => {
    const core = createCore();
    await core.bootstrap({
      organization: 'acme',
      user: 'admin',
      token: 'lk_admin_token_for_fetch_test_00000000000',
    });
    const response = await core.fetch(
      new Request('http://localhost/api/v2/organizations/acme/projects', {
        method: 'POST',
        headers: {
          authorization: 'Bearer lk_admin_token_for_fetch_test_00000000000',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ slug: 'web' }),
      }),
    );
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ slug: 'web' });
  });

  it('caps bodies in core.fetch by Content-Length and while streaming', async () => {
    const core = createCore({ bodyLimit: 1000 });
    const declared = await core.fetch(
      new Request('http://localhost/api/v2/openapi.json', { method: 'POST', body: 'x'.repeat(1001) }),
    );
    expect(declared.status).toBe(413);
    expect(declared.headers.get('connection')).toBe('close');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(300));
        controller.close();
      },
    });
    const streamed = await core.fetch(
      new Request('http://localhost/api/v2/openapi.json', {
        method: 'POST',
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(await streamed.json()).toMatchObject({ error: { code: 'payload_too_large', status: 413 } });
  });

  it('honours a custom base path and answers 404 outside it', async () => {
    const core = createCore({ basePath: '/secrets-api/' });
    expect((await core.handle(get('/secrets-api/openapi.json'))).status).toBe(200);
    expect((await core.handle(get('/api/v2/openapi.json'))).status).toBe(404);
    const doc = bodyOf(await core.handle(get('/secrets-api/openapi.json')));
    expect(Object.keys(doc.paths)[0]).toMatch(/^\/secrets-api\//);
  });

  it('bootstraps idempotently', async () => {
    const core = createCore();
    const a = await core.bootstrap({
      organization: 'acme',
      user: 'admin',
      token: 'lk_same_token_bootstrap_twice_0000000000',
    });
    const b = await core.bootstrap({
      organization: 'acme',
      user: 'admin',
      token: 'lk_same_token_bootstrap_twice_0000000000',
    });
    expect(b.id).toBe(a.id);
    expect(await core.store.tokens.list(a.id)).toHaveLength(1);
  });
});

describe('POST /organizations', () => {
  it('is refused with 403 unless the host enables allowOrganizationCreation', async () => {
    const core = createCore();
    const token = 'lk_create_organization_disabled_test_000000000';
    await core.bootstrap({ organization: 'acme', user: 'admin', token });
    const response = await core.handle({
      method: 'POST',
      url: '/api/v2/organizations',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"slug":"initech"}',
    });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body as string).error.code).toBe('forbidden');
    expect(await core.store.organizations.getBySlug('initech')).toBeNull();
  });
});

describe('GET …/activity/checkpoint', () => {
  it('answers 404 when the host supplies no audit key, and the NDJSON export then has no checkpoint line', async () => {
    const core = createCore();
    const token = 'lk_checkpoint_without_key_test_0000000000000';
    await core.bootstrap({ organization: 'acme', user: 'admin', token });
    const get = (url: string) =>
      core.handle({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const checkpoint = await get('/api/v2/organizations/acme/activity/checkpoint');
    expect(checkpoint.status).toBe(404);
    expect(JSON.parse(checkpoint.body as string).error.code).toBe('not_found');
    const exported = await get('/api/v2/organizations/acme/activity/export');
    let text = '';
    for await (const chunk of exported.body as AsyncIterable<string>) text += chunk;
    expect(text).not.toContain('checkpoint');
  });
});
