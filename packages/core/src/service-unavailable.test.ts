import { describe, expect, it } from 'vitest';
import { createCore } from './core.js';
import { serviceUnavailable } from './errors/latchkey-error.js';
import { createMemoryStore } from './memory/index.js';

const TOKEN = 'lk_service_unavailable_test_token_0000000000';

describe('a store that cannot serve', () => {
  it('answers 503 service_unavailable with Retry-After, and logs the cause without the token', async () => {
    const store = createMemoryStore();
    const logged: unknown[] = [];
    const core = createCore({ store, logger: { error: (message, meta) => logged.push({ message, meta }) } });
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    store.tokens.findByHash = async () => {
      throw serviceUnavailable(cause, 3);
    };
    const response = await core.handle({
      method: 'GET',
      url: '/api/v2/organizations/acme',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('3');
    expect(JSON.parse(response.body as string)).toEqual({
      error: { code: 'service_unavailable', message: expect.any(String), status: 503 },
    });
    expect(response.body).not.toContain('ECONNREFUSED');
    expect(logged).toEqual([
      {
        message: 'the store is unavailable',
        meta: { route: 'getOrganization', cause: 'Error ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5432' },
      },
    ]);
    expect(JSON.stringify(logged)).not.toContain(TOKEN);
  });

  it('is documented on every authenticated route, with its Retry-After header', () => {
    const core = createCore();
    const paths = core.openapi()['paths'] as Record<
      string,
      Record<string, { responses: Record<string, unknown> }>
    >;
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if ((operation as { security?: unknown[] }).security) continue;
        expect(operation.responses['503'], `${method} ${path}`).toMatchObject({
          headers: { 'Retry-After': expect.any(Object) },
        });
      }
    }
  });
});
