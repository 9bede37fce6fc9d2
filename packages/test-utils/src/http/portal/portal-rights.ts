/**
 * Item: what a portal session's token may do. Its rights are its capabilities intersected with its
 * member's permissions at every request: the sections it does not name (secrets, members, tokens,
 * backups, the portal routes themselves) are closed to it, `read_only` refuses every write, and a
 * member demoted or removed takes the session's rights with them. Every refusal is the documented
 * error body.
 */
import { createCore } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { type ConformanceContext, ENV_PATH } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { conformanceResolver, PUBLIC_HOST } from '../harness/fake-network.js';
import { PORTAL_ORIGIN } from '../members/role-table-portal-rows.js';
import { mint, SESSIONS, sessionStatus } from './portal-helpers.js';

const ORG = '/api/v2/organizations/acme';
const HOOKS = `${ORG}/audit-webhooks`;

/** Registers the portal rights tests. */
export function describePortalRightsTests(ctx: ConformanceContext): void {
  describe('portal session rights', () => {
    const hook = async (): Promise<string> => {
      const created = await ctx.send('POST', HOOKS, { name: 'portal', url: `https://${PUBLIC_HOST}/portal` });
      expect(created.status, created.text).toBe(201);
      return (created.json as { id: string }).id;
    };

    it('opens only the sections its capabilities name', async () => {
      const { token } = await mint(ctx, { capabilities: ['audit_webhooks:read'] });
      for (const path of ['/api/v2/me', '/api/v2/event-types', HOOKS, `${HOOKS}/metrics?window=24h`]) {
        const answer = await ctx.send('GET', path, undefined, token);
        expect(answer.status, `${path} ${answer.text}`).toBe(200);
      }
      const closed: [string, string, unknown?][] = [
        ['POST', HOOKS, { name: 'x', url: `https://${PUBLIC_HOST}/x` }],
        ['GET', `${ORG}/history`],
        ['GET', `${ENV_PATH}/secrets`],
        ['GET', `${ORG}/members`],
        ['GET', `${ORG}/tokens`],
        ['POST', `${ORG}/tokens`, { user: 'admin', name: 'escalate' }],
        ['GET', `${ORG}/backup`],
        ['GET', `${ORG}/activity/export`],
        ['GET', SESSIONS],
        ['POST', SESSIONS, { capabilities: ['audit_webhooks:manage'], origin: PORTAL_ORIGIN }],
        ['POST', `${SESSIONS}/expire-all`, {}],
        ['POST', '/api/v2/organizations', { slug: 'from-portal' }],
      ];
      for (const [method, path, body] of closed) {
        expectError(await ctx.send(method, path, body, token), 403, 'forbidden');
      }
    });

    it('manages webhooks with manage, and sees a secret only with secrets', async () => {
      const id = await hook();
      const manage = (await mint(ctx, { capabilities: ['audit_webhooks:manage'] })).token;
      expect((await ctx.send('PATCH', `${HOOKS}/${id}`, { name: 'renamed' }, manage)).status).toBe(200);
      expect((await ctx.send('POST', `${HOOKS}/${id}/disable`, undefined, manage)).status).toBe(200);
      expect((await ctx.send('POST', `${HOOKS}/${id}/enable`, undefined, manage)).status).toBe(200);
      expectError(
        await ctx.send('POST', `${HOOKS}/${id}/rotate-secret`, undefined, manage),
        403,
        'forbidden',
      );
      const body = { name: 'mine', url: `https://${PUBLIC_HOST}/mine` };
      expectError(await ctx.send('POST', HOOKS, body, manage), 403, 'forbidden');
      const secrets = (await mint(ctx, { capabilities: ['audit_webhooks:manage', 'audit_webhooks:secrets'] }))
        .token;
      const created = await ctx.send('POST', HOOKS, body, secrets);
      expect(created.status, created.text).toBe(201);
      expect((created.json as { signing_secret?: string }).signing_secret).toBeTruthy();
      expect((await ctx.send('POST', `${HOOKS}/${id}/rotate-secret`, undefined, secrets)).status).toBe(200);
    });

    it('refuses every write of a read-only session with 403, and changes nothing', async () => {
      const id = await hook();
      const { token } = await mint(ctx, {
        capabilities: ['audit_webhooks:manage', 'audit_webhooks:secrets', 'activity:read'],
        read_only: true,
      });
      expect((await ctx.send('GET', `${HOOKS}/${id}`, undefined, token)).status).toBe(200);
      expect((await ctx.send('GET', `${ORG}/history`, undefined, token)).status).toBe(200);
      const writes: [string, string, unknown?][] = [
        ['POST', HOOKS, { name: 'ro', url: `https://${PUBLIC_HOST}/ro` }],
        ['PATCH', `${HOOKS}/${id}`, { name: 'ro' }],
        ['POST', `${HOOKS}/${id}/disable`],
        ['POST', `${HOOKS}/${id}/rotate-secret`],
        ['POST', `${HOOKS}/${id}/test`],
      ];
      for (const [method, path, body] of writes) {
        expectError(await ctx.send(method, path, body, token), 403, 'forbidden');
      }
      expect((await ctx.send('GET', `${HOOKS}/${id}`)).json).toMatchObject({
        name: 'portal',
        status: 'active',
      });
    });

    it("intersects capabilities with the member's permissions, at minting and at every request", async () => {
      for (const capabilities of [['audit_webhooks:read'], ['activity:export'], ['audit_webhooks:secrets']]) {
        const refused = await ctx.send('POST', SESSIONS, {
          user: 'dev',
          capabilities,
          origin: PORTAL_ORIGIN,
        });
        expectError(refused, 403, 'forbidden');
      }
      const dev = (await mint(ctx, { user: 'dev', capabilities: ['activity:read'] })).token;
      expect((await ctx.send('GET', `${ORG}/projects/web/history`, undefined, dev)).status).toBe(200);
      expectError(await ctx.send('GET', `${ORG}/projects/api/history`, undefined, dev), 403, 'forbidden');
      expectError(await ctx.send('GET', `${ORG}/history`, undefined, dev), 403, 'forbidden');

      await ctx.addMember('ps-demoted', 'admin');
      const admin = (await mint(ctx, { user: 'ps-demoted', capabilities: ['audit_webhooks:manage'] })).token;
      expect((await ctx.send('GET', HOOKS, undefined, admin)).status).toBe(200);
      const demoted = await ctx.send('PATCH', `${ORG}/members/ps-demoted`, { role: 'viewer' });
      expect(demoted.status, demoted.text).toBe(200);
      expectError(await ctx.send('GET', HOOKS, undefined, admin), 403, 'forbidden');
      expect((await ctx.send('DELETE', `${ORG}/members/ps-demoted`)).status).toBe(200);
      expectError(await ctx.send('GET', HOOKS, undefined, admin), 401, 'unauthenticated');
    });

    it("is the core's own credential when the host authenticates its other callers", async () => {
      const core = createCore({
        store: ctx.core.store,
        authenticate: () => null,
        keyring: ctx.keyring,
        webhooks: { resolve: conformanceResolver, transport: ctx.webhookTransport },
        portal: { allowedOrigins: [PORTAL_ORIGIN] },
      });
      const minted = await core.createPortalSession({
        organization: 'acme',
        user: 'admin',
        capabilities: ['audit_webhooks:read'],
        origin: PORTAL_ORIGIN,
      });
      expect(minted.url).toMatch(/^\/dashboard\/embed\?session=ps_[A-Za-z0-9]+#lkp_/);
      const token = minted.url.slice(minted.url.indexOf('#') + 1);
      const target = await ctx.serve(core);
      try {
        const send = (path: string, bearer: string) =>
          target.send({ method: 'GET', path, headers: { authorization: `Bearer ${bearer}` } });
        expect((await send(HOOKS, token)).status).toBe(200);
        expectError(await send(`${ENV_PATH}/secrets`, token), 403, 'forbidden');
        // The API token the suite's core accepts is not this core's: the host decides who else calls.
        expect((await send(HOOKS, 'lk_conformance_admin_token_acme_0000000000000')).status).toBe(401);
        expect(await core.expirePortalSessions({ organization: 'acme', user: 'admin' })).toContain(
          minted.session_id,
        );
        expectError(await send(HOOKS, token), 401, 'unauthenticated');
      } finally {
        await target.close();
      }
      expect(await sessionStatus(ctx, token)).toBe(401);
    });
  });
}
