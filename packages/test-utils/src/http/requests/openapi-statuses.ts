/** Item: every status the server answers for an operation is listed in that operation's responses. */
import fc from 'fast-check';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { BODY_FIELDS } from '../harness/fuzz-fields.js';

type Operations = Record<string, Record<string, { responses: Record<string, { headers?: unknown }> }>>;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const CONTENT_TYPES = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset="latin1"',
  'application/json; charset',
  'application/merge-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '*/*',
];

/** Registers the property test that checks answers against the served OpenAPI document. */
export function describeOpenApiStatusTests(ctx: ConformanceContext): void {
  describe('the OpenAPI document lists every status', () => {
    it('answers every fuzzed request with a status its operation (or, for 405, its path) lists', async () => {
      const served = await ctx.send('GET', '/api/v2/openapi.json', undefined, null);
      const paths = (served.json as { paths: Operations }).paths;
      const values: Record<string, string[]> = {
        organization: ['acme', 'globex', 'nowhere'],
        project: ['web', 'api', 'nope'],
        environment: ['prod', 'dev', 'nowhere'],
        device: [ctx.admin.deviceId, 'dev_000000000000000000000000', 'bad'],
        token: ['tok_000000000000000000000000', 'x'],
      };
      const path = fc.constantFrom(...Object.keys(paths)).chain((template) => {
        const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        return fc
          .tuple(...names.map((name) => fc.constantFrom(...(values[name] ?? ['x']))))
          .map((chosen) => ({
            template,
            url: names.reduce((url, name, i) => url.replace(`{${name}}`, chosen[i]!), template),
          }));
      });
      const json = fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom(...BODY_FIELDS), fc.jsonValue()));
      const body = fc.option(
        fc.oneof(
          json.map((v) => JSON.stringify(v)),
          fc.string(),
          fc.constantFrom('{', '', '{}'),
        ),
      );
      const token = fc.constantFrom(ctx.viewerToken, ctx.developer.token, null, 'lk_not_a_token');
      const query = fc.constantFrom('', '?x=1', '?a=1&a=2');
      await fc.assert(
        fc.asyncProperty(
          path,
          fc.constantFrom(...METHODS),
          fc.constantFrom(...CONTENT_TYPES),
          body,
          token,
          query,
          async (target, method, type, raw, credential, search) => {
            const response = await ctx.target.send({
              method,
              path: target.url + search,
              headers: {
                ...(credential ? { authorization: `Bearer ${credential}` } : {}),
                ...(type ? { 'content-type': type } : {}),
              },
              // fetch sends no body with GET.
              body: method === 'GET' || raw === null ? undefined : raw,
            });
            const operations = paths[target.template]!;
            const listed =
              response.status === 405
                ? Object.values(operations).some((op) => '405' in op.responses)
                : `${response.status}` in (operations[method.toLowerCase()]?.responses ?? {});
            expect({ method, path: target.template, status: response.status, listed }).toMatchObject({
              listed: true,
            });
            if (response.status === 405) expect(response.headers['allow']).toBeTruthy();
          },
        ),
        { numRuns: 300 },
      );
    });
  });
}
