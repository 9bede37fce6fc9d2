/**
 * Item: a portal session ends at once on DELETE or on its member's "expire all", another
 * organization's sessions answer 404, and an admin mints, lists and ends sessions only of members
 * within reach. Each ending is recorded, never with a token.
 */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext, OTHER_ORG_ADMIN } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { PORTAL_ORIGIN } from '../members/role-table-portal-rows.js';
import { mint, SESSIONS, sessionStatus } from './portal-helpers.js';

/** Registers the tests of ending portal sessions and of who reaches whose. */
export function describePortalEndingTests(ctx: ConformanceContext): void {
  describe('portal session endings', () => {
    it('ends a session at once on DELETE; a second DELETE is a 404', async () => {
      const session = await mint(ctx, { capabilities: ['activity:read'] });
      expect(await sessionStatus(ctx, session.token)).toBe(200);
      const ended = await ctx.send('DELETE', `${SESSIONS}/${session.id}`);
      expect(ended.status, ended.text).toBe(200);
      expect((ended.json as { revoked_at: string | null }).revoked_at).not.toBeNull();
      expectError(
        await ctx.send('GET', '/api/v2/portal-session', undefined, session.token),
        401,
        'unauthenticated',
      );
      expectError(await ctx.send('DELETE', `${SESSIONS}/${session.id}`), 404, 'not_found');
      const listed = (await ctx.send('GET', SESSIONS)).json as { portal_sessions: { id: string }[] };
      expect(listed.portal_sessions.map((s) => s.id)).not.toContain(session.id);
      const events = await ctx.events('portal_session_revoked');
      expect(events.find((e) => (e.data['session_ids'] as string[]).includes(session.id))?.data).toEqual({
        user: 'admin',
        session_ids: [session.id],
        expire_all: false,
      });
    });

    it("ends every live session of a member at once on 'expire all', and no one else's", async () => {
      const first = await mint(ctx, { user: 'dev', capabilities: ['activity:read'] });
      const second = await mint(ctx, { user: 'dev', capabilities: ['activity:read'], read_only: true });
      const other = await mint(ctx, { user: 'viewer', capabilities: ['activity:read'] });
      const answer = await ctx.send('POST', `${SESSIONS}/expire-all`, { user: 'dev' });
      expect(answer.status, answer.text).toBe(200);
      const ended = [first.id, second.id].sort();
      const sorted = (data: unknown) => {
        const { session_ids, ...rest } = data as { session_ids: string[] };
        return { ...rest, session_ids: [...session_ids].sort() };
      };
      expect(sorted(answer.json)).toEqual({ user: 'dev', session_ids: ended });
      for (const ended of [first, second]) {
        expectError(
          await ctx.send('GET', '/api/v2/portal-session', undefined, ended.token),
          401,
          'unauthenticated',
        );
      }
      expect(await sessionStatus(ctx, other.token)).toBe(200);
      const events = await ctx.events('portal_session_revoked');
      expect(sorted(events[0]?.data)).toEqual({ user: 'dev', session_ids: ended, expire_all: true });
      // Nothing left to end: an empty answer, and nothing recorded.
      const again = await ctx.send('POST', `${SESSIONS}/expire-all`, { user: 'dev' });
      expect(again.json).toEqual({ user: 'dev', session_ids: [] });
      expect((await ctx.events('portal_session_revoked')).length).toBe(events.length);
      expectError(
        await ctx.send('POST', `${SESSIONS}/expire-all`, { user: 'nobody-here' }),
        400,
        'invalid_request',
      );
    });

    it("answers another organization's sessions with 404, and its token nowhere in this one", async () => {
      const globex = '/api/v2/organizations/globex/portal-sessions';
      const theirs = await mint(ctx, { capabilities: ['audit_webhooks:read'] }, OTHER_ORG_ADMIN, globex);
      const ours = await mint(ctx, { capabilities: ['audit_webhooks:read'] });
      expectError(await ctx.send('DELETE', `${SESSIONS}/${theirs.id}`), 404, 'not_found');
      expectError(await ctx.send('DELETE', `${globex}/${ours.id}`, undefined, ADMIN), 404, 'not_found');
      expectError(
        await ctx.send('DELETE', `${SESSIONS}/${ours.id}`, undefined, OTHER_ORG_ADMIN),
        404,
        'not_found',
      );
      expectError(await ctx.send('GET', SESSIONS, undefined, OTHER_ORG_ADMIN), 404, 'not_found');
      expectError(
        await ctx.send('GET', '/api/v2/organizations/acme/audit-webhooks', undefined, theirs.token),
        404,
        'not_found',
      );
      const listed = (await ctx.send('GET', SESSIONS)).json as { portal_sessions: { id: string }[] };
      expect(listed.portal_sessions.map((s) => s.id)).not.toContain(theirs.id);
      expect(await sessionStatus(ctx, theirs.token)).toBe(200);
      expect(await sessionStatus(ctx, ours.token)).toBe(200);
    });

    it('lets an admin mint, list and end only within reach; a developer mints none', async () => {
      const adminToken = await ctx.addMember('ps-admin', 'admin');
      const owners = await mint(ctx, { capabilities: ['activity:read'] });
      const refusals = [
        await ctx.send(
          'POST',
          SESSIONS,
          { user: 'admin', capabilities: ['activity:read'], origin: PORTAL_ORIGIN },
          adminToken,
        ),
        await ctx.send('DELETE', `${SESSIONS}/${owners.id}`, undefined, adminToken),
        await ctx.send('POST', `${SESSIONS}/expire-all`, { user: 'admin' }, adminToken),
        await ctx.send(
          'POST',
          SESSIONS,
          { capabilities: ['activity:read'], origin: PORTAL_ORIGIN },
          ctx.developer.token,
        ),
        await ctx.send('GET', SESSIONS, undefined, ctx.viewerToken),
      ];
      for (const refusal of refusals) expectError(refusal, 403, 'forbidden');
      expect(await sessionStatus(ctx, owners.token)).toBe(200);
      const own = await mint(ctx, { user: 'dev', capabilities: ['activity:read'] }, adminToken);
      const seen = (await ctx.send('GET', SESSIONS, undefined, adminToken)).json as {
        portal_sessions: { id: string; created_by: string; user: string }[];
      };
      expect(seen.portal_sessions.map((s) => s.id)).toContain(own.id);
      expect(seen.portal_sessions.every((s) => s.created_by === 'ps-admin' || s.user === 'ps-admin')).toBe(
        true,
      );
      expect((await ctx.send('DELETE', `${SESSIONS}/${own.id}`, undefined, adminToken)).status).toBe(200);
    });
  });
}
