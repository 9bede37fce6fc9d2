/**
 * Item: every string the API takes is well-formed Unicode without NUL, and a push stores exactly
 * what it signed, whatever Unicode that is (astral, combining marks, line separators), on every store.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext, ENV_PATH } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

const ORG = '/api/v2/organizations/acme';

/** Code points that trip encoders and line splitters, mixed into random text. */
const AWKWARD = [
  '\u2028',
  '\u2029',
  '\u0085',
  '\u0301',
  'e\u0301',
  '\uFEFF',
  '\u200D',
  '\r\n',
  '\t',
  '\\',
  '"',
  '\u{1F600}',
  '\u{1F469}\u200D\u{1F4BB}',
  '\u{10FFFF}',
  '\uFFFF',
  '\uFFFD',
];

/** Any well-formed Unicode but NUL: every plane, graphemes, and the awkward code points above. */
const unicodeText = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom(...AWKWARD),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 40,
  })
  .map((value) => value.replaceAll('\u0000', ''));

/** The `details` of a 400, as `path: message` lines. */
function details(body: Record<string, unknown>): { path: string; message: string }[] {
  return (body['error'] as { details?: { path: string; message: string }[] }).details ?? [];
}

/** Registers these tests of the HTTP conformance suite. */
export function describeWellFormedTextTests(ctx: ConformanceContext): void {
  const { send, push, pull } = ctx;

  /** Expects a 400 `invalid_request` whose details point at `path` and say what is wrong there. */
  const refused = (response: Parameters<typeof expectError>[0], path: string, fault: RegExp) => {
    const body = expectError(response, 400, 'invalid_request');
    expect(details(body)).toContainEqual({ path, message: expect.stringMatching(fault) });
  };

  describe('well-formed text', () => {
    it('refuses a signed push whose value holds a lone surrogate, naming where, and stores nothing', async () => {
      // The signature is valid: the client signed the JCS of exactly this body.
      const response = await push(ctx.admin, {
        changes: [
          { key: 'LONE_OK', value: 'fine' },
          { key: 'LONE_HIGH', value: 'a\uD800b' },
        ],
      });
      refused(response, 'body.changes.1.value', /lone surrogate U\+D800 is at index 1/);
      const low = await push(ctx.admin, { changes: [{ key: 'LONE_LOW', value: '\uDC00' }] });
      refused(low, 'body.changes.0.value', /lone surrogate U\+DC00/);
      const keys = (await pull()).map((s) => s.key);
      expect(keys).not.toContain('LONE_OK');
      expect(keys).not.toContain('LONE_LOW');
    });

    it('refuses a lone surrogate in every kind of string the API takes, with details naming the path', async () => {
      const lone = 'x\uDBFF';
      refused(await send('POST', `${ORG}/projects`, { slug: 'lone', name: lone }), 'body.name', /surrogate/);
      refused(await send('POST', `${ORG}/projects`, { slug: lone }), 'body.slug', /surrogate/);
      refused(await send('POST', `${ORG}/tokens`, { user: 'admin', name: lone }), 'body.name', /surrogate/);
      refused(await send('POST', `${ORG}/members`, { user: lone, role: 'viewer' }), 'body.user', /surrogate/);
      refused(
        await send('POST', `${ORG}/members`, {
          user: 'lone-grants',
          role: 'viewer',
          grants: [{ project: 'web', environments: [lone] }],
        }),
        'body.grants.0.environments.0',
        /surrogate/,
      );
      refused(
        await send('POST', `${ORG}/devices`, { name: lone, public_key: 'x'.repeat(43) }),
        'body.name',
        /surrogate/,
      );
      refused(
        await send('POST', `${ORG}/audit-webhooks`, { name: 'lone', url: `https://example.com/${lone}` }),
        'body.url',
        /surrogate/,
      );
      refused(
        await send('POST', '/api/v2/organizations', { slug: 'lone-org', name: lone }),
        'body.name',
        /surrogate/,
      );
      const key = await push(ctx.admin, { changes: [{ key: `K${lone}`, value: 'v' }] });
      refused(key, 'body.changes.0.key', /surrogate/);
      // Nothing refused was written.
      const projects = (await send('GET', `${ORG}/projects`)).json as { projects: { slug: string }[] };
      expect(projects.projects.map((p) => p.slug)).not.toContain('lone');
    });

    it('refuses NUL in text (PostgreSQL text and environment variables cannot hold it)', async () => {
      refused(
        await push(ctx.admin, { changes: [{ key: 'NUL_VALUE', value: 'a\u0000b' }] }),
        'body.changes.0.value',
        /NUL/,
      );
      refused(await send('POST', `${ORG}/projects`, { slug: 'nul', name: 'a\u0000' }), 'body.name', /NUL/);
      expect((await pull()).map((s) => s.key)).not.toContain('NUL_VALUE');
    });

    it('refuses a body or a query that is not UTF-8 with 400, never replacing the bytes', async () => {
      const raw = (bytes: number[], path = `${ORG}/projects`) =>
        ctx.target.send({
          method: 'POST',
          path,
          headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
          body: new Uint8Array([...Buffer.from('{"slug":"bytes","name":"'), ...bytes, ...Buffer.from('"}')]),
        });
      // A stray byte, an encoded surrogate (no UTF-8 form), an overlong "/", a cut sequence.
      for (const bytes of [[0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xe2, 0x82]]) {
        expectError(await raw(bytes), 400, 'invalid_request');
      }
      expect((await raw([0xe2, 0x82, 0xac])).status).toBe(201);
      const projects = (await send('GET', `${ORG}/projects`)).json as { projects: { name: string }[] };
      expect(projects.projects.filter((p) => p.name.includes('\uFFFD'))).toEqual([]);
      expect(projects.projects.map((p) => p.name)).toContain('\u20AC');
      expectError(await send('GET', `${ORG}/history?cursor=%ED%A0%80`), 400, 'invalid_request');
      expectError(await send('GET', `${ORG}/history?type=%FF`), 400, 'invalid_request');
    });

    it('stores and reads back exactly what a push signed, for any well-formed Unicode (property)', async () => {
      let round = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(unicodeText, { minLength: 1, maxLength: 4 }), async (values) => {
          round++;
          const changes = values.map((value, i) => ({ key: `UNICODE_${round}_${i}`, value }));
          const response = await push(ctx.admin, { changes });
          expect(response.status, JSON.stringify(response.json)).toBe(200);
          const stored = new Map((await pull()).map((s) => [s.key, s.value]));
          for (const change of changes) expect(stored.get(change.key)).toBe(change.value);
        }),
        { numRuns: 40 },
      );
      // Another member granted the environment reads the same text.
      const mine = await send('GET', `${ENV_PATH}/secrets`, undefined, ctx.developer.token);
      expect((mine.json as { secrets: unknown[] }).secrets).toEqual(await pull());
    });
  });
}
