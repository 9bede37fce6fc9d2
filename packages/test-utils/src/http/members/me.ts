/** Item: GET /me tells any valid credential who it speaks for; nothing else gets an answer. */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext, OTHER_ORG_ADMIN } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

interface Me {
  user: string;
  organization: { id: string; slug: string; name: string };
  role: string;
  grants: { project: string; environments: string[] }[];
}

/** Registers the /me tests. */
export function describeMeTests(ctx: ConformanceContext): void {
  describe('who am I', () => {
    it('answers the user, organization, role and grants of each credential', async () => {
      const owner = await ctx.send('GET', '/api/v2/me', undefined, ADMIN);
      expect(owner.status).toBe(200);
      const me = owner.json as Me;
      expect(me.role).toBe('owner');
      expect(me.organization.slug).toBe('acme');
      expect(me.organization.id).toBe((await ctx.core.store.organizations.getBySlug('acme'))!.id);
      expect(Object.keys(me).sort()).toEqual(['grants', 'organization', 'role', 'user']);

      const developer = (await ctx.send('GET', '/api/v2/me', undefined, ctx.developer.token)).json as Me;
      expect(developer.role).toBe('developer');
      expect(developer.organization.slug).toBe('acme');
      expect(developer.grants.length).toBeGreaterThan(0);
      expect(developer.user).not.toBe(me.user);

      const viewer = (await ctx.send('GET', '/api/v2/me', undefined, ctx.viewerToken)).json as Me;
      expect(viewer).toMatchObject({ user: 'viewer', role: 'viewer', organization: { slug: 'acme' } });

      // Another organization's owner learns about their own organization only.
      const outsider = (await ctx.send('GET', '/api/v2/me', undefined, OTHER_ORG_ADMIN)).json as Me;
      expect(outsider.role).toBe('owner');
      expect(outsider.organization.slug).not.toBe('acme');
    });

    it('refuses no credential, a malformed one and an unknown one with 401', async () => {
      expectError(await ctx.send('GET', '/api/v2/me', undefined, null), 401, 'unauthenticated');
      expectError(await ctx.send('GET', '/api/v2/me', undefined, 'not-a-token'), 401, 'unauthenticated');
      expectError(
        await ctx.send('GET', '/api/v2/me', undefined, `lk_${'A'.repeat(43)}`),
        401,
        'unauthenticated',
      );
    });

    it('stops answering the token of a removed member at once', async () => {
      const token = await ctx.addMember('me-revoked', 'viewer');
      expect((await ctx.send('GET', '/api/v2/me', undefined, token)).status).toBe(200);
      expect(
        (await ctx.send('DELETE', '/api/v2/organizations/acme/members/me-revoked', undefined, ADMIN)).status,
      ).toBe(200);
      expectError(await ctx.send('GET', '/api/v2/me', undefined, token), 401, 'unauthenticated');
    });
  });
}
