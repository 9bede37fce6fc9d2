/**
 * Item: workload identities (owner, admin). Created with exact matchers only (no empty value, no
 * `*`), an issuer the SSRF rules let the server reach, listed, deleted (its tokens stop at once),
 * recorded as events; less privileged members and other organizations are refused.
 */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { createIdentity, IDENTITIES, identityBody, session } from './workload-helpers.js';

export function describeWorkloadIdentityTests(ctx: ConformanceContext): void {
  describe('workload identities', () => {
    it('creates, lists and deletes an identity, each recorded as an event', async () => {
      const created = await ctx.send('POST', IDENTITIES, identityBody(ctx, 'ci-list'));
      expect(created.status, created.text).toBe(201);
      expect(created.json).toMatchObject({
        name: 'ci-list',
        issuer: ctx.issuer.issuer,
        subject: 'repo:acme/web:ref:refs/heads/main',
        claims: { repository_id: '424242', ref: 'refs/heads/main' },
        actions: ['secrets:read', 'secrets:push'],
        token_ttl_seconds: 900,
      });
      const id = (created.json as { id: string }).id;
      const listed = await ctx.send('GET', IDENTITIES);
      expect(
        (listed.json as { workload_identities: { id: string }[] }).workload_identities.map((i) => i.id),
      ).toContain(id);
      const [event] = await ctx.events('workload_identity_created');
      expect(event).toMatchObject({
        actor: { type: 'user', id: 'admin' },
        data: { identity_id: id, name: 'ci-list' },
      });
      expect((await ctx.send('DELETE', `${IDENTITIES}/ci-list`)).status).toBe(200);
      expect((await ctx.events('workload_identity_removed'))[0]).toMatchObject({ data: { identity_id: id } });
      expectError(await ctx.send('DELETE', `${IDENTITIES}/ci-list`), 404, 'not_found');
      const after = await ctx.send('GET', IDENTITIES);
      expect(
        (after.json as { workload_identities: { id: string }[] }).workload_identities.map((i) => i.id),
      ).not.toContain(id);
    });

    it('refuses an empty or wildcard matcher, a claim holding *, and a bad lifetime, writing nothing', async () => {
      const refused: Record<string, unknown>[] = [
        { subject: '*' },
        { subject: 'repo:acme/*' },
        { subject: '' },
        { audience: '' },
        { audience: '*' },
        { claims: { repository_id: '*' } },
        { claims: { ref: '' } },
        { claims: { sub: 'x' } },
        { token_ttl_seconds: 59 },
        { token_ttl_seconds: 3601 },
        { actions: ['secrets:force_overwrite'] },
        { actions: [] },
        { issuer: 'http://issuer.example.com' },
        { grants: [] },
      ];
      for (const [i, extra] of refused.entries()) {
        const answer = await ctx.send('POST', IDENTITIES, identityBody(ctx, `ci-bad-${i}`, extra));
        expect(answer.status, JSON.stringify(extra)).toBe(400);
        expectError(answer, 400, 'invalid_request');
      }
      const listed = await ctx.send('GET', IDENTITIES);
      expect(JSON.stringify(listed.json)).not.toContain('ci-bad-');
    });

    it('refuses an issuer on an internal address at create', async () => {
      for (const issuer of [
        'https://internal.example.com',
        'https://10.0.0.1',
        'https://metadata.example.com',
      ]) {
        const answer = await ctx.send('POST', IDENTITIES, identityBody(ctx, 'ci-internal', { issuer }));
        expectError(answer, 400, 'invalid_request');
      }
    });

    it('refuses a duplicate name, and members without workload_identities:manage', async () => {
      await createIdentity(ctx, 'ci-dup');
      expectError(await ctx.send('POST', IDENTITIES, identityBody(ctx, 'ci-dup')), 409, 'already_exists');
      for (const token of [ctx.developer.token, ctx.viewerToken]) {
        expectError(await ctx.send('POST', IDENTITIES, identityBody(ctx, 'ci-dev'), token), 403, 'forbidden');
        expectError(await ctx.send('GET', IDENTITIES, undefined, token), 403, 'forbidden');
        expectError(await ctx.send('DELETE', `${IDENTITIES}/ci-dup`, undefined, token), 403, 'forbidden');
      }
    });

    it('another organization can neither see nor delete an identity, nor mint for it', async () => {
      const id = await createIdentity(ctx, 'ci-tenant');
      const other = '/api/v2/organizations/globex/workload-identities';
      const { OTHER_ORG_ADMIN } = await import('../harness/context.js');
      const listed = await ctx.send('GET', other, undefined, OTHER_ORG_ADMIN);
      expect(JSON.stringify(listed.json)).not.toContain(id);
      expectError(await ctx.send('DELETE', `${other}/${id}`, undefined, OTHER_ORG_ADMIN), 404, 'not_found');
      expectError(
        await ctx.send('DELETE', `${IDENTITIES}/${id}`, undefined, OTHER_ORG_ADMIN),
        404,
        'not_found',
      );
      expect((await ctx.send('GET', IDENTITIES)).text).toContain(id);
    });

    it('deleting an identity ends its live tokens at once and revokes their devices', async () => {
      await createIdentity(ctx, 'ci-delete');
      const live = await session(ctx, 'ci-delete');
      const path = '/api/v2/organizations/acme/projects/web/environments/prod/secrets';
      expect((await ctx.send('GET', path, undefined, live.token)).status).toBe(200);
      expect((await ctx.send('DELETE', `${IDENTITIES}/ci-delete`)).status).toBe(200);
      expectError(await ctx.send('GET', path, undefined, live.token), 401, 'unauthenticated');
      const devices = await ctx.send('GET', '/api/v2/organizations/acme/devices');
      const device = (devices.json as { devices: { id: string; status: string }[] }).devices.find(
        (d) => d.id === live.deviceId,
      );
      expect(device?.status).toBe('revoked');
    });
  });
}
