/** Item: POST /organizations makes the caller the owner of a new organization, with a token for it. */
import { type ActivityEvent, verifyChain } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

/** Registers the organization-creation tests (the suite's core enables it). */
export function describeCreateOrganizationTests(ctx: ConformanceContext): void {
  describe('creating organizations', () => {
    it('makes the caller owner of a new organization and answers an owner token once', async () => {
      const created = await ctx.send(
        'POST',
        '/api/v2/organizations',
        { slug: 'initech', name: 'Initech' },
        ctx.viewerToken,
      );
      expect(created.status).toBe(201);
      const body = created.json as { organization: { slug: string; name: string }; token: string };
      expect(body.organization).toMatchObject({ slug: 'initech', name: 'Initech' });
      expect(body.token).toMatch(/^lk_[A-Za-z0-9_-]{43}$/);
      // The new token is the new organization's; the caller's old one stays in acme.
      expect((await ctx.send('GET', '/api/v2/organizations/initech', undefined, body.token)).status).toBe(
        200,
      );
      expectError(
        await ctx.send('GET', '/api/v2/organizations/initech', undefined, ctx.viewerToken),
        404,
        'not_found',
      );
      expectError(
        await ctx.send('GET', '/api/v2/organizations/acme', undefined, body.token),
        404,
        'not_found',
      );
      const members = await ctx.send('GET', '/api/v2/organizations/initech/members', undefined, body.token);
      expect(members.json).toMatchObject({ members: [{ user: 'viewer', role: 'owner' }] });
      // Its chain starts with its own creation, and verifies.
      const org = (await ctx.core.store.organizations.getBySlug('initech'))!;
      const events: ActivityEvent[] = (
        await ctx.core.store.activity.list({ organizationId: org.id, limit: 10 })
      ).reverse();
      expect(events.map((e) => [e.seq, e.type, e.organization, e.actor.id])).toEqual([
        [1, 'organization_created', 'initech', 'viewer'],
        [2, 'member_added', 'initech', 'viewer'],
        [3, 'token_created', 'initech', 'viewer'],
      ]);
      expect(verifyChain(events)).toBe(-1);
      expect(JSON.stringify(events)).not.toContain(body.token);
    });

    it('refuses a taken slug (409), a bad one (400) and an anonymous caller (401)', async () => {
      expectError(await ctx.send('POST', '/api/v2/organizations', { slug: 'acme' }), 409, 'already_exists');
      expectError(
        await ctx.send('POST', '/api/v2/organizations', { slug: 'Not A Slug' }),
        400,
        'invalid_request',
      );
      expectError(
        await ctx.send('POST', '/api/v2/organizations', { slug: 'x', extra: 1 }),
        400,
        'invalid_request',
      );
      expectError(
        await ctx.send('POST', '/api/v2/organizations', { slug: 'anon-org' }, null),
        401,
        'unauthenticated',
      );
      expect(await ctx.core.store.organizations.getBySlug('anon-org')).toBeNull();
    });
  });
}
