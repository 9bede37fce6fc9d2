/**
 * The HTTP conformance suite: one body of tests that every way of serving the core must pass,
 * in-process through `core.handle` and over a real loopback server for each adapter. Parts of it live
 * in `conformance/`; they share the state of {@link ConformanceContext}.
 */
import { type ActivityEvent, createCore, generateDeviceKeyPair, signPush, verifyChain } from '@latchkey/core';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeClockTests } from './conformance/clock.js';
import {
  ADDRESS,
  ADMIN,
  type ConformanceContext,
  ENV_PATH,
  type Member,
  OTHER_ORG_ADMIN,
} from './conformance/context.js';
import { describeDeviceKeyTests } from './conformance/device-keys.js';
import { expectError } from './conformance/expect-error.js';
import { describeMediaTypeTests } from './conformance/media-types.js';
import { describeOpenApiStatusTests } from './conformance/openapi-statuses.js';
import { describeWhoActsOnWhomTests } from './conformance/who-acts-on-whom.js';
import type { StartTarget } from './http-target.js';

export { expectError };

/** Registers the suite for one way of serving the core. */
export function describeHttpConformance(name: string, start: StartTarget): void {
  describe(`HTTP conformance: ${name}`, () => {
    let unexpected: unknown[] = [];
    const ctx = { clock: { pinnedMs: null } } as ConformanceContext;

    ctx.send = (method, path, body?, token = ADMIN, headers = {}) =>
      ctx.target.send({
        method,
        path,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });

    ctx.push = (who, push, address = ADDRESS, path = ENV_PATH) =>
      ctx.send(
        'POST',
        `${path}/push`,
        signPush(
          { device_id: who.deviceId, ...push },
          address,
          who.keys.privateKey,
          () => ctx.clock.pinnedMs ?? Date.now(),
        ),
        who.token,
      );

    ctx.events = async (type?: string): Promise<ActivityEvent[]> => {
      const org = (await ctx.core.store.organizations.getBySlug('acme'))!;
      return ctx.core.store.activity.list({
        organizationId: org.id,
        limit: 100_000,
        ...(type ? { type } : {}),
      });
    };

    ctx.enroll = async (token: string): Promise<Member> => {
      const keys = generateDeviceKeyPair();
      const response = await ctx.send(
        'POST',
        '/api/v2/organizations/acme/devices',
        { name: 'laptop', public_key: keys.publicKey },
        token,
      );
      expect(response.status).toBe(201);
      return { token, keys, deviceId: (response.json as { id: string }).id };
    };

    ctx.addMember = async (user: string, role: string, grants?: unknown): Promise<string> => {
      expect(
        (await ctx.send('POST', '/api/v2/organizations/acme/members', { user, role, grants })).status,
      ).toBe(201);
      const created = await ctx.send('POST', '/api/v2/organizations/acme/tokens', {
        user,
        name: `${user} token`,
      });
      expect(created.status).toBe(201);
      return (created.json as { token: string }).token;
    };

    const { send, push, events, enroll } = ctx;
    const pull = async (path = ENV_PATH) => {
      const response = await send('GET', `${path}/secrets`);
      expect(response.status).toBe(200);
      return (response.json as { secrets: { key: string; value: string; version: number }[] }).secrets;
    };

    beforeAll(async () => {
      const failures: unknown[] = [];
      ctx.core = createCore({
        validateResponses: true,
        // The tests pin this clock to check the signed_at window at exact sub-second instants.
        now: () => ctx.clock.pinnedMs ?? Date.now(),
        logger: { error: (message, meta) => failures.push({ message, meta }) },
      });
      unexpected = failures;
      await ctx.core.bootstrap({ organization: 'acme', user: 'admin', token: ADMIN });
      await ctx.core.bootstrap({ organization: 'globex', user: 'boss', token: OTHER_ORG_ADMIN });
      ctx.target = await start(ctx.core);
      expect((await send('POST', '/api/v2/organizations/acme/projects', { slug: 'web' })).status).toBe(201);
      expect((await send('POST', '/api/v2/organizations/acme/projects', { slug: 'api' })).status).toBe(201);
      for (const slug of ['prod', 'dev']) {
        expect(
          (await send('POST', '/api/v2/organizations/acme/projects/web/environments', { slug })).status,
        ).toBe(201);
      }
      const strict = await send('POST', '/api/v2/organizations/acme/projects/web/environments', {
        slug: 'locked',
        require_strict_conflict_mode: true,
      });
      expect(strict.status).toBe(201);
      ctx.admin = await enroll(ADMIN);
      ctx.developer = await enroll(
        await ctx.addMember('dev', 'developer', [{ project: 'web', environments: ['prod'] }]),
      );
      ctx.viewerToken = await ctx.addMember('viewer', 'viewer', [{ project: 'web', environments: ['*'] }]);
    });

    afterAll(async () => {
      await ctx.target?.close();
    });

    afterEach(() => {
      ctx.clock.pinnedMs = null;
      // Every answer matched its documented schema and nothing failed unexpectedly.
      expect(unexpected.splice(0)).toEqual([]);
    });

    describe('meta and authentication', () => {
      it('serves the OpenAPI 3.1 document without a credential', async () => {
        const response = await send('GET', '/api/v2/openapi.json', undefined, null);
        expect(response.status).toBe(200);
        const doc = response.json as { openapi: string; paths: Record<string, Record<string, unknown>> };
        expect(doc.openapi).toBe('3.1.0');
        const push =
          doc.paths[
            '/api/v2/organizations/{organization}/projects/{project}/environments/{environment}/push'
          ];
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
        const typed = expectError(
          await send('POST', projects, { slug: 'Not A Slug' }),
          400,
          'invalid_request',
        );
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
        const json = fc.oneof(
          fc.jsonValue(),
          fc.dictionary(
            fc.constantFrom(
              'slug',
              'name',
              'user',
              'role',
              'grants',
              'changes',
              'device_id',
              'nonce',
              'signed_at',
              'client_sig',
              'public_key',
              'require_strict_conflict_mode',
              'x',
            ),
            fc.jsonValue(),
          ),
        );
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

    describe('signed pushes and optimistic concurrency', () => {
      it('applies a push, pulls it back, and versions each key from 1', async () => {
        const first = await push(ctx.admin, {
          changes: [{ key: 'DB_URL', value: 'postgres://one', if_version: 0 }],
        });
        expect(first.status).toBe(200);
        const body = first.json as { versions: unknown; event_id: string };
        expect(body.versions).toEqual([{ key: 'DB_URL', version: 1 }]);
        expect(body.event_id).toMatch(/^evt_/);
        const second = await push(ctx.admin, {
          changes: [{ key: 'DB_URL', value: 'postgres://two', if_version: 1 }],
        });
        expect(second.json).toMatchObject({ versions: [{ key: 'DB_URL', version: 2 }] });
        expect((await pull()).find((s) => s.key === 'DB_URL')).toMatchObject({
          value: 'postgres://two',
          version: 2,
        });
        const applied = (await events('push_applied')).find((e) => e.id === body.event_id);
        expect(applied).toMatchObject({
          project: 'web',
          environment: 'prod',
          device_id: ctx.admin.deviceId,
          actor: { id: 'admin' },
        });
      });

      it('deletes with a tombstone version; if_version 0 then means "no live value"', async () => {
        await push(ctx.admin, { changes: [{ key: 'TEMP', value: 'x' }] });
        const deleted = await push(ctx.admin, { changes: [{ key: 'TEMP', delete: true, if_version: 1 }] });
        expect(deleted.json).toMatchObject({ versions: [{ key: 'TEMP', version: 2 }] });
        expect((await pull()).some((s) => s.key === 'TEMP')).toBe(false);
        const again = await push(ctx.admin, { changes: [{ key: 'TEMP', value: 'y', if_version: 0 }] });
        expect(again.json).toMatchObject({ versions: [{ key: 'TEMP', version: 3 }] });
      });

      it('answers a conflict with 409, every conflicting key in the exact shape, and writes nothing', async () => {
        await push(ctx.admin, {
          changes: [
            { key: 'C1', value: 'a' },
            { key: 'C2', value: 'a' },
          ],
        });
        const before = await pull();
        const response = await push(ctx.admin, {
          changes: [
            { key: 'C1', value: 'b', if_version: 7 },
            { key: 'C2', value: 'b', if_version: 0 },
            { key: 'C3', value: 'new', if_version: 0 },
          ],
        });
        const body = expectError(response, 409, 'version_conflict');
        expect(Object.keys(body).sort()).toEqual(['conflicts', 'error']);
        expect(body['conflicts']).toEqual([
          { key: 'C1', server_version: 1, client_if_version: 7 },
          { key: 'C2', server_version: 1, client_if_version: 0 },
        ]);
        expect(await pull()).toEqual(before);
        const conflict = (await events('push_conflict'))[0]!;
        expect(conflict.data).toMatchObject({ conflicts: body['conflicts'] });
      });

      it('lets exactly one of 50 parallel pushes with the same if_version win', async () => {
        const seed = await push(ctx.admin, { changes: [{ key: 'RACE', value: 'seed' }] });
        const version = (seed.json as { versions: { version: number }[] }).versions[0]!.version;
        const responses = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            push(ctx.admin, { changes: [{ key: 'RACE', value: `writer-${i}`, if_version: version }] }),
          ),
        );
        const ok = responses.filter((r) => r.status === 200);
        const conflicts = responses.filter((r) => r.status === 409);
        expect(ok).toHaveLength(1);
        expect(conflicts).toHaveLength(49);
        for (const response of conflicts) {
          expect(response.json).toEqual({
            error: { code: 'version_conflict', message: expect.any(String), status: 409 },
            conflicts: [{ key: 'RACE', server_version: version + 1, client_if_version: version }],
          });
        }
        expect((await pull()).find((s) => s.key === 'RACE')!.version).toBe(version + 1);
      });

      it('refuses a reused nonce with 409 push_replayed', async () => {
        const body = signPush(
          { device_id: ctx.admin.deviceId, changes: [{ key: 'N1', value: 'v' }] },
          ADDRESS,
          ctx.admin.keys.privateKey,
        );
        expect((await send('POST', `${ENV_PATH}/push`, body)).status).toBe(200);
        expectError(await send('POST', `${ENV_PATH}/push`, body), 409, 'push_replayed');
      });

      it('refuses bad signatures, tampered bodies, other addresses and stale signed_at with 401', async () => {
        const good = signPush(
          { device_id: ctx.admin.deviceId, changes: [{ key: 'S1', value: 'v' }] },
          ADDRESS,
          ctx.admin.keys.privateKey,
        );
        const tampered = { ...good, changes: [{ key: 'S1', value: 'evil' }] };
        expectError(await send('POST', `${ENV_PATH}/push`, tampered), 401, 'invalid_client_signature');
        const elsewhere = signPush(
          { device_id: ctx.admin.deviceId, changes: [{ key: 'S1', value: 'v' }] },
          { ...ADDRESS, environment: 'dev' },
          ctx.admin.keys.privateKey,
        );
        expectError(await send('POST', `${ENV_PATH}/push`, elsewhere), 401, 'invalid_client_signature');
        const garbage = { ...good, nonce: 'A'.repeat(22), client_sig: 'A'.repeat(86) };
        expectError(await send('POST', `${ENV_PATH}/push`, garbage), 401, 'invalid_client_signature');
        const stale = signPush(
          {
            device_id: ctx.admin.deviceId,
            changes: [{ key: 'S1', value: 'v' }],
            signed_at: Math.floor(Date.now() / 1000) - 301,
          },
          ADDRESS,
          ctx.admin.keys.privateKey,
        );
        expectError(await send('POST', `${ENV_PATH}/push`, stale), 401, 'invalid_client_signature');
        const future = signPush(
          {
            device_id: ctx.admin.deviceId,
            changes: [{ key: 'S1', value: 'v' }],
            signed_at: Math.floor(Date.now() / 1000) + 400,
          },
          ADDRESS,
          ctx.admin.keys.privateKey,
        );
        expectError(await send('POST', `${ENV_PATH}/push`, future), 401, 'invalid_client_signature');
        expect((await pull()).some((s) => s.key === 'S1')).toBe(false);
      });

      it('checks the device: unknown, revoked, or owned by someone else is 403', async () => {
        const ghost = { ...ctx.admin, deviceId: 'dev_ffffffffffffffffffffffff' };
        expectError(await push(ghost, { changes: [{ key: 'D1', value: 'v' }] }), 403, 'device_unknown');
        const borrowed = { ...ctx.developer, token: ADMIN };
        expectError(await push(borrowed, { changes: [{ key: 'D1', value: 'v' }] }), 403, 'device_not_owned');
        const spare = await enroll(ADMIN);
        expect(
          (await send('POST', `/api/v2/organizations/acme/devices/${spare.deviceId}/revoke`)).status,
        ).toBe(200);
        expectError(await push(spare, { changes: [{ key: 'D1', value: 'v' }] }), 403, 'device_revoked');
        const rejected = await events('push_rejected');
        expect(rejected.map((e) => e.data['reason'])).toEqual(
          expect.arrayContaining(['device_unknown', 'device_not_owned', 'device_revoked']),
        );
        expect(rejected.find((e) => e.data['reason'] === 'device_revoked')?.device_id).toBe(spare.deviceId);
        const junk = await send('POST', `${ENV_PATH}/push`, {
          device_id: '<script>'.repeat(20),
          changes: [],
        });
        expectError(junk, 400, 'invalid_request');
        const logged = (await events('push_rejected'))[0]!;
        expect(logged.data).toEqual({ reason: 'invalid_request', status: 400 });
        expect(logged.device_id).toBeUndefined();
      });

      it('strict mode: every change needs if_version (428 with keys), force is refused', async () => {
        const missing = await push(ctx.admin, {
          conflict_mode: 'strict',
          changes: [
            { key: 'K1', value: 'v', if_version: 0 },
            { key: 'K2', value: 'v' },
            { key: 'K3', delete: true },
          ],
        });
        const body = expectError(missing, 428, 'if_version_required');
        expect(body['keys']).toEqual(['K2', 'K3']);
        const forced = await push(ctx.admin, {
          conflict_mode: 'strict',
          force_overwrite: true,
          changes: [{ key: 'K1', value: 'v', if_version: 0 }],
        });
        expectError(forced, 400, 'invalid_request');
        const ok = await push(ctx.admin, {
          conflict_mode: 'strict',
          changes: [{ key: 'K1', value: 'v', if_version: 0 }],
        });
        expect(ok.status).toBe(200);
      });

      it('an environment that requires strict mode refuses lenient pushes', async () => {
        const path = '/api/v2/organizations/acme/projects/web/environments/locked';
        const address = { ...ADDRESS, environment: 'locked' };
        expectError(
          await push(ctx.admin, { changes: [{ key: 'L', value: 'v', if_version: 0 }] }, address, path),
          400,
          'invalid_request',
        );
        const strict = await push(
          ctx.admin,
          { conflict_mode: 'strict', changes: [{ key: 'L', value: 'v', if_version: 0 }] },
          address,
          path,
        );
        expect(strict.status).toBe(200);
        const relax = await send('PATCH', path, { require_strict_conflict_mode: false });
        expect(relax.json).toMatchObject({ require_strict_conflict_mode: false });
        expect((await push(ctx.admin, { changes: [{ key: 'L', value: 'w' }] }, address, path)).status).toBe(
          200,
        );
      });

      it('force_overwrite needs secrets:force_overwrite and records push_force_overwrite', async () => {
        await push(ctx.admin, {
          changes: [
            { key: 'F1', value: 'a' },
            { key: 'F2', value: 'a' },
          ],
        });
        await push(ctx.admin, { changes: [{ key: 'F1', value: 'b' }] });
        const denied = await push(ctx.developer, {
          force_overwrite: true,
          changes: [{ key: 'F1', value: 'dev' }],
        });
        expectError(denied, 403, 'forbidden');
        const forced = await push(ctx.admin, {
          force_overwrite: true,
          changes: [
            { key: 'F1', value: 'forced', if_version: 1 },
            { key: 'F2', value: 'forced' },
          ],
        });
        expect(forced.status).toBe(200);
        expect(forced.json).toMatchObject({
          versions: [
            { key: 'F1', version: 3 },
            { key: 'F2', version: 2 },
          ],
        });
        const event = (await events('push_force_overwrite')).find(
          (e) => e.id === (forced.json as { event_id: string }).event_id,
        );
        expect(event?.data).toMatchObject({
          keys: ['F1', 'F2'],
          overwritten: [
            { key: 'F1', server_version: 2, client_if_version: 1 },
            { key: 'F2', server_version: 1, client_if_version: null },
          ],
        });
      });
    });

    describe('roles and grants', () => {
      it('lets a developer push only where granted, and a viewer only read', async () => {
        expect((await push(ctx.developer, { changes: [{ key: 'DEV_OK', value: 'v' }] })).status).toBe(200);
        const dev = '/api/v2/organizations/acme/projects/web/environments/dev';
        expectError(
          await push(
            ctx.developer,
            { changes: [{ key: 'X', value: 'v' }] },
            { ...ADDRESS, environment: 'dev' },
            dev,
          ),
          403,
          'forbidden',
        );
        expect((await send('GET', `${ENV_PATH}/secrets`, undefined, ctx.viewerToken)).status).toBe(200);
        expectError(
          await send(
            'GET',
            '/api/v2/organizations/acme/projects/api/environments',
            undefined,
            ctx.viewerToken,
          ),
          403,
          'forbidden',
        );
        expectError(
          await send('POST', '/api/v2/organizations/acme/projects', { slug: 'nope' }, ctx.viewerToken),
          403,
          'forbidden',
        );
        expectError(
          await send(
            'POST',
            '/api/v2/organizations/acme/tokens',
            { user: 'viewer', name: 'x' },
            ctx.developer.token,
          ),
          403,
          'forbidden',
        );
        const listed = await send('GET', '/api/v2/organizations/acme/projects', undefined, ctx.viewerToken);
        expect((listed.json as { projects: { slug: string }[] }).projects.map((p) => p.slug)).toEqual([
          'web',
        ]);
      });

      it('returns the permission matrix with scopes and effective grants', async () => {
        const response = await send('GET', '/api/v2/organizations/acme/permission-matrix');
        expect(response.status).toBe(200);
        const matrix = response.json as {
          matrix: Record<string, Record<string, boolean>>;
          permissions: { name: string; scope: string }[];
          members: { user: string; effective: { permission: string; project?: string }[] }[];
        };
        expect(matrix.matrix['admin']!['secrets:force_overwrite']).toBe(true);
        expect(matrix.matrix['developer']!['secrets:force_overwrite']).toBe(false);
        expect(matrix.permissions.find((p) => p.name === 'secrets:push')?.scope).toBe('environment');
        const dev = matrix.members.find((m) => m.user === 'dev')!;
        expect(dev.effective).toEqual(
          expect.arrayContaining([expect.objectContaining({ permission: 'secrets:push', project: 'web' })]),
        );
        expectError(
          await send('GET', '/api/v2/organizations/acme/permission-matrix', undefined, ctx.viewerToken),
          403,
          'forbidden',
        );
      });

      it('never returns token values or hashes after creation', async () => {
        const listed = await send('GET', '/api/v2/organizations/acme/tokens');
        expect(listed.status).toBe(200);
        expect(listed.text).not.toContain('lk_');
        expect(listed.text).not.toContain('hash');
      });
    });

    describe('activity log', () => {
      it('keeps secret values out of events and the chain intact', async () => {
        const all = await events();
        const text = JSON.stringify(all);
        for (const value of ['postgres://one', 'postgres://two', 'forced', 'writer-'])
          expect(text).not.toContain(value);
        expect(text).not.toContain(ADMIN);
        expect(verifyChain([...all].reverse())).toBe(-1);
        expect(all.length).toBeGreaterThan(50);
      });
    });

    describeWhoActsOnWhomTests(ctx);
    describeDeviceKeyTests(ctx);
    describeClockTests(ctx);
    describeMediaTypeTests(ctx);
    describeOpenApiStatusTests(ctx);
  });
}
