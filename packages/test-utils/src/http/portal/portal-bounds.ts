/**
 * Item: an organization holds at most `limits.portalSessionsPerOrganization` live portal sessions.
 * One more is 409 `limit_exceeded` and writes nothing, even when the mints race; a session ended
 * (by DELETE or by expiry) frees its place, and the ended rows are gone at the next mint, so the
 * store never holds more than the bound.
 */
import { createCore } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import type { TargetResponse } from '../harness/http-target.js';
import { PORTAL_ORIGIN } from '../members/role-table-portal-rows.js';

const BOUND = 3;

/** Registers the bound test of portal sessions. */
export function describePortalBoundTests(ctx: ConformanceContext): void {
  describe('portal session bounds', () => {
    it('limits: an organization holds at most portalSessionsPerOrganization live sessions', async () => {
      let nowMs = Date.now();
      const core = createCore({
        store: ctx.core.store,
        allowOrganizationCreation: true,
        keyring: ctx.keyring,
        limits: { portalSessionsPerOrganization: BOUND },
        portal: { allowedOrigins: [PORTAL_ORIGIN] },
        now: () => nowMs,
      });
      const target = await ctx.serve(core);
      try {
        const send = (method: string, path: string, token: string, json?: unknown): Promise<TargetResponse> =>
          target.send({
            method,
            path: `/api/v2${path}`,
            headers: {
              authorization: `Bearer ${token}`,
              ...(json === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(json === undefined ? {} : { body: JSON.stringify(json) }),
          });
        const slug = `portal-${Math.random().toString(36).slice(2, 8)}`;
        const founder = await ctx.addMember(`${slug}-founder`, 'viewer');
        const made = await send('POST', '/organizations', founder, { slug });
        expect(made.status, made.text).toBe(201);
        const { token } = made.json as { token: string };
        const base = `/organizations/${slug}/portal-sessions`;
        const body = { capabilities: ['activity:read'], origin: PORTAL_ORIGIN };
        const answers = await Promise.all([1, 2, 3, 4, 5].map(() => send('POST', base, token, body)));
        expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 409, 409]);
        for (const refused of answers.filter((a) => a.status === 409)) {
          const error = expectError(refused, 409, 'limit_exceeded') as { error: { message: string } };
          expect(error.error.message).toContain('limits.portalSessionsPerOrganization');
        }
        const listed = async () =>
          ((await send('GET', base, token)).json as { portal_sessions: { id: string }[] }).portal_sessions;
        expect(await listed()).toHaveLength(BOUND);
        const organizationId = (await ctx.core.store.organizations.getBySlug(slug))!.id;
        const created = await ctx.core.store.activity.list({
          organizationId,
          types: ['portal_session_created'],
          limit: 100,
        });
        expect(created).toHaveLength(BOUND);

        const [first] = await listed();
        expect((await send('DELETE', `${base}/${first!.id}`, token)).status).toBe(200);
        expect((await send('POST', base, token, body)).status).toBe(201);
        expectError(await send('POST', base, token, body), 409, 'limit_exceeded');
        // An hour on, every session has expired: the next mint deletes them all.
        const before = (await listed()).map((s) => s.id);
        nowMs += 3_600_000;
        expect((await send('POST', base, token, body)).status).toBe(201);
        expect(await listed()).toHaveLength(1);
        for (const id of [first!.id, ...before])
          expect(await ctx.core.store.portalSessions.get(id)).toBeNull();
      } finally {
        await target.close();
      }
    });
  });
}
