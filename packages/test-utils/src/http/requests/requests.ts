import fc from 'fast-check';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext, ENV_PATH, OTHER_ORG_ADMIN } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { BODY_FIELDS } from '../harness/fuzz-fields.js';

/** Registers these tests of the HTTP conformance suite. */
export function describeRequestTests(ctx: ConformanceContext): void {
  metaTests(ctx);

  badInputTests(ctx);
}

/** The OpenAPI document, authentication and the answers to unknown resources, paths and methods. */
function metaTests(ctx: ConformanceContext): void {
  const { send } = ctx;
  describe('meta and authentication', () => {
    it('serves the OpenAPI 3.1 document without a credential', async () => {
      const response = await send('GET', '/api/v2/openapi.json', undefined, null);
      expect(response.status).toBe(200);
      const doc = response.json as { openapi: string; paths: Record<string, Record<string, unknown>> };
      expect(doc.openapi).toBe('3.1.0');
      const push =
        doc.paths['/api/v2/organizations/{organization}/projects/{project}/environments/{environment}/push'];
      expect(push?.['post']).toMatchObject({
        operationId: 'push',
        'x-latchkey-permission': 'secrets:push',
      });
      expect(JSON.stringify(push)).toContain('if_version');
    });

    it('answers 401 without a credential and with a bad one', async () => {
      expectError(await send('GET', '/api/v2/organizations/acme', undefined, null), 401, 'unauthenticated');
      expectError(
        await send('GET', '/api/v2/organizations/acme', undefined, 'lk_nope'),
        401,
        'unauthenticated',
      );
      expectError(
        await send('GET', '/api/v2/organizations/acme', undefined, null, { authorization: 'Basic YTpi' }),
        401,
        'unauthenticated',
      );
    });

    it("answers another organization's resources with 404, never 403", async () => {
      expectError(
        await send('GET', '/api/v2/organizations/acme', undefined, OTHER_ORG_ADMIN),
        404,
        'not_found',
      );
      expectError(await send('GET', `${ENV_PATH}/secrets`, undefined, OTHER_ORG_ADMIN), 404, 'not_found');
      expectError(await send('GET', '/api/v2/organizations/nowhere', undefined, ADMIN), 404, 'not_found');
      expect((await send('GET', '/api/v2/organizations/globex', undefined, OTHER_ORG_ADMIN)).status).toBe(
        200,
      );
    });

    it('answers unknown paths with 404 and wrong methods with 405', async () => {
      expectError(await send('GET', '/api/v2/organizations/acme/nothing-here'), 404, 'not_found');
      const wrong = await send('DELETE', '/api/v2/organizations/acme/projects');
      expectError(wrong, 405, 'method_not_allowed');
      expect(wrong.headers['allow']).toContain('GET');
    });
  });
}

/** Bad input of every kind is a 4xx, never a 5xx. */
function badInputTests(ctx: ConformanceContext): void {
  const { send } = ctx;
  describe('bad input never gets a 5xx', () => {
    it('rejects malformed JSON, wrong types, missing and unknown fields with details', async () => {
      const projects = '/api/v2/organizations/acme/projects';
      expectError(await send('POST', projects, '{"slug": '), 400, 'invalid_request');
      expectError(await send('POST', projects, '[1,2]'), 400, 'invalid_request');
      expectError(await send('POST', projects, { slug: 42 }), 400, 'invalid_request');
      expectError(await send('POST', projects, {}), 400, 'invalid_request');
      const unknown = expectError(
        await send('POST', projects, { slug: 'ok-slug', extra: true }),
        400,
        'invalid_request',
      );
      expect((unknown['error'] as { details: unknown[] }).details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: 'body' })]),
      );
      const typed = expectError(await send('POST', projects, { slug: 'Not A Slug' }), 400, 'invalid_request');
      expect((typed['error'] as { details: { path: string }[] }).details[0]!.path).toBe('body.slug');
      expectError(await send('POST', projects, ''), 400, 'invalid_request');
    });

    it('rejects a body that is not JSON by media type with 415', async () => {
      expectError(
        await send('POST', '/api/v2/organizations/acme/projects', 'slug=x', ADMIN, {
          'content-type': 'text/plain',
        }),
        415,
        'unsupported_media_type',
      );
    });

    it('rejects bodies over 1 MiB with 413', async () => {
      const big = JSON.stringify({ slug: 'x'.repeat(1_100_000) });
      expectError(await send('POST', '/api/v2/organizations/acme/projects', big), 413, 'payload_too_large');
    });

    it('rejects bad path ids and unknown query parameters with 400', async () => {
      expectError(
        await send('POST', '/api/v2/organizations/acme/devices/not-an-id/revoke'),
        400,
        'invalid_request',
      );
      expectError(
        await send('GET', '/api/v2/organizations/acme/projects/Web_Bad/environments'),
        400,
        'invalid_request',
      );
      expectError(
        await send('GET', '/api/v2/organizations/acme/projects/%E0%A4%A/environments'),
        400,
        'invalid_request',
      );
      expectError(await send('GET', '/api/v2/organizations/acme/projects?page=2'), 400, 'invalid_request');
      expectError(
        await send('POST', '/api/v2/organizations/acme/devices/dev_000000000000000000000000/revoke'),
        404,
        'not_found',
      );
    });

    it('answers random bodies on every route with a documented status and body (property)', async () => {
      const documented = new Set([200, 201, 400, 401, 403, 404, 405, 409, 413, 415, 428]);
      const routes = ctx.core.routes.filter((r) => r.auth !== false);
      const json = fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom(...BODY_FIELDS), fc.jsonValue()));
      const body = fc.oneof(
        json.map((v) => JSON.stringify(v)),
        fc.string(),
        fc.constant('{'),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...routes), body, async (route, raw) => {
          const path = `/api/v2${route.path}`
            .replace('{organization}', 'acme')
            .replace('{project}', 'api')
            .replace('{environment}', 'nowhere')
            .replace('{device}', 'dev_000000000000000000000000')
            .replace('{token}', 'tok_000000000000000000000000');
          const response = await send(
            route.method,
            path,
            route.method === 'GET' ? undefined : raw,
            ctx.viewerToken,
          );
          expect(documented.has(response.status)).toBe(true);
          if (response.status >= 400) {
            const error = (response.json as { error: { code: string; status: number; message: string } })
              .error;
            expect(error.status).toBe(response.status);
            expect(typeof error.code).toBe('string');
          }
        }),
        { numRuns: 150 },
      );
      await fc.assert(
        fc.asyncProperty(body, async (raw) => {
          const response = await ctx.target.send({
            method: 'POST',
            path: `${ENV_PATH}/push`,
            headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
            body: raw,
          });
          expect([400, 401, 403, 409, 428]).toContain(response.status);
        }),
        { numRuns: 100 },
      );
    });
  });
}
