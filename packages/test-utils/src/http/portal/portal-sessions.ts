/**
 * Item: portal sessions are minted by owners and admins for a member within their reach, with
 * `expires_in_seconds` of 60 to 86,400 and an allowed origin; the URL carries the token after `#`
 * only; a session is refused after expiry, ends at once on DELETE or "expire all", is another
 * organization's 404, and its events never carry the token.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { PORTAL_ORIGIN } from '../members/role-table-portal-rows.js';
import { mint, SESSIONS, sessionStatus } from './portal-helpers.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Registers the portal session tests. */
export function describePortalSessionTests(ctx: ConformanceContext): void {
  describe('portal sessions', () => {
    it('mints a session whose URL carries its token only after #, never listed nor recorded', async () => {
      const before = Date.now();
      const answer = await ctx.send('POST', SESSIONS, {
        capabilities: ['audit_webhooks:manage', 'audit_webhooks:read'],
        origin: PORTAL_ORIGIN,
      });
      expect(answer.status, answer.text).toBe(201);
      expect(answer.headers['cache-control']).toBe('no-store');
      const body = answer.json as { session_id: string; url: string; expires_at: string };
      expect(Object.keys(body).sort()).toEqual(['expires_at', 'session_id', 'url']);
      expect(body.session_id).toMatch(/^ps_[A-Za-z0-9]{8,64}$/);
      const [page, token] = body.url.split('#') as [string, string];
      expect(page).toBe(`https://latchkey.test/dashboard/embed?session=${body.session_id}`);
      expect(token).toMatch(/^lkp_[A-Za-z0-9_-]{43}$/);
      const life = Date.parse(body.expires_at) - before;
      expect(life).toBeGreaterThan(3_590_000);
      expect(life).toBeLessThan(3_610_000);

      const current = await ctx.send('GET', '/api/v2/portal-session', undefined, token);
      expect(current.status, current.text).toBe(200);
      expect(current.json).toMatchObject({
        session_id: body.session_id,
        organization: { slug: 'acme' },
        user: 'admin',
        capabilities: ['audit_webhooks:read', 'audit_webhooks:manage'],
        read_only: false,
        origin: PORTAL_ORIGIN,
        expires_at: body.expires_at,
      });

      const listed = await ctx.send('GET', SESSIONS);
      expect(listed.status).toBe(200);
      const sessions = (listed.json as { portal_sessions: Record<string, unknown>[] }).portal_sessions;
      expect(sessions.find((s) => s['id'] === body.session_id)).toMatchObject({
        user: 'admin',
        created_by: 'admin',
        revoked_at: null,
      });
      const events = await ctx.events('portal_session_created');
      expect(events.find((e) => e.data['session_id'] === body.session_id)?.data).toEqual({
        session_id: body.session_id,
        user: 'admin',
        capabilities: ['audit_webhooks:read', 'audit_webhooks:manage'],
        read_only: false,
        origin: PORTAL_ORIGIN,
        expires_at: body.expires_at,
      });
      for (const text of [listed.text, JSON.stringify(await ctx.events())]) {
        expect(text).not.toContain(token);
        expect(text).not.toContain(sha256(token));
      }
    });

    it('holds expires_in_seconds to 60..86400, the origin to the allowed ones, the rest to the schema', async () => {
      const count = async () =>
        ((await ctx.send('GET', SESSIONS)).json as { portal_sessions: unknown[] }).portal_sessions.length;
      const before = await count();
      const refused: [Record<string, unknown>, string][] = [
        [{ expires_in_seconds: 59 }, 'body.expires_in_seconds'],
        [{ expires_in_seconds: 86_401 }, 'body.expires_in_seconds'],
        [{ expires_in_seconds: 90.5 }, 'body.expires_in_seconds'],
        [{ origin: 'https://evil.test' }, 'body.origin'],
        [{ origin: `${PORTAL_ORIGIN}/settings` }, 'body.origin'],
        [{ origin: 'http://host.portal.test' }, 'body.origin'],
        [{ origin: 'x'.repeat(301) }, 'body.origin'],
        [{ capabilities: [] }, 'body.capabilities'],
        [{ capabilities: ['secrets:read'] }, 'body.capabilities.0'],
        [{ user: 'nobody-here' }, 'body.user'],
        [{ token: 'lkp_mine' }, 'body'],
      ];
      for (const [change, path] of refused) {
        const answer = await ctx.send('POST', SESSIONS, {
          capabilities: ['activity:read'],
          origin: PORTAL_ORIGIN,
          ...change,
        });
        const error = expectError(answer, 400, 'invalid_request') as {
          error: { details?: { path: string }[] };
        };
        expect(
          error.error.details?.map((d) => d.path),
          JSON.stringify(change),
        ).toContain(path);
      }
      expect(await count()).toBe(before);
      for (const seconds of [60, 86_400]) {
        const session = await mint(ctx, { capabilities: ['activity:read'], expires_in_seconds: seconds });
        expect(Date.parse(session.expiresAt) - Date.now()).toBeGreaterThan(seconds * 1000 - 10_000);
      }
      // A loopback http origin may frame it too, when the host allows it.
      await mint(ctx, { capabilities: ['activity:read'], origin: 'http://127.0.0.1:5173' });
    });

    it('refuses a session after it expires', async () => {
      const start = Date.now();
      ctx.clock.pinnedMs = start;
      const session = await mint(ctx, { capabilities: ['activity:read'], expires_in_seconds: 60 });
      expect(await sessionStatus(ctx, session.token)).toBe(200);
      ctx.clock.pinnedMs = start + 59_999;
      expect(await sessionStatus(ctx, session.token)).toBe(200);
      ctx.clock.pinnedMs = start + 60_000;
      expectError(
        await ctx.send('GET', '/api/v2/portal-session', undefined, session.token),
        401,
        'unauthenticated',
      );
      expectError(
        await ctx.send('GET', '/api/v2/organizations/acme/history', undefined, session.token),
        401,
        'unauthenticated',
      );
    });
  });
}
