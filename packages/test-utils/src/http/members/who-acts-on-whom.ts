/** Item: nobody acts on (tokens, devices, membership of) a member whose role ranks above their own. */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

const ORG = '/api/v2/organizations/acme';

/** Registers the "who may act on whom" tests. */
export function describeWhoActsOnWhomTests(ctx: ConformanceContext): void {
  describe('who may act on whom', () => {
    it('refuses an admin a token for an owner, so an admin cannot become an owner', async () => {
      const adminToken = await ctx.addMember('second-admin', 'admin');
      // The bootstrap user `admin` is an owner of acme.
      expectError(
        await ctx.send('POST', `${ORG}/tokens`, { user: 'admin', name: 'x' }, adminToken),
        403,
        'forbidden',
      );
      expectError(
        await ctx.send('POST', `${ORG}/members`, { user: 'o2', role: 'owner' }, adminToken),
        403,
        'forbidden',
      );
      const tokens = await ctx.send('GET', `${ORG}/tokens`);
      const names = (tokens.json as { tokens: { user: string; name: string }[] }).tokens;
      expect(names.filter((t) => t.user === 'admin' && t.name === 'x')).toEqual([]);
      // Equal and lower ranks stay within reach.
      for (const user of ['second-admin', 'dev']) {
        const created = await ctx.send('POST', `${ORG}/tokens`, { user, name: 'ok' }, adminToken);
        expect(created.status, user).toBe(201);
      }
      expect(
        (await ctx.send('POST', `${ORG}/members`, { user: 'third-admin', role: 'admin' }, adminToken)).status,
      ).toBe(201);
      expect(
        (await ctx.send('POST', `${ORG}/tokens`, { user: 'second-admin', name: 'by owner' }, ADMIN)).status,
      ).toBe(201);
    });

    it("refuses an admin to revoke an owner's token or device, and allows it on lower ranks", async () => {
      const adminToken = await ctx.addMember('revoking-admin', 'admin');
      const listed = (await ctx.send('GET', `${ORG}/tokens`)).json as {
        tokens: { id: string; user: string; revoked_at: string | null }[];
      };
      const ownerToken = listed.tokens.find((t) => t.user === 'admin' && t.revoked_at === null)!;
      expectError(
        await ctx.send('POST', `${ORG}/tokens/${ownerToken.id}/revoke`, undefined, adminToken),
        403,
        'forbidden',
      );
      expect((await ctx.send('GET', ORG)).status).toBe(200);

      expectError(
        await ctx.send('POST', `${ORG}/devices/${ctx.admin.deviceId}/revoke`, undefined, adminToken),
        403,
        'forbidden',
      );
      const devices = (await ctx.send('GET', `${ORG}/devices`)).json as {
        devices: { id: string; status: string }[];
      };
      expect(devices.devices.find((d) => d.id === ctx.admin.deviceId)?.status).toBe('active');

      const spare = await ctx.enroll(ctx.developer.token);
      const revoked = await ctx.send(
        'POST',
        `${ORG}/devices/${spare.deviceId}/revoke`,
        undefined,
        adminToken,
      );
      expect(revoked.json).toMatchObject({ status: 'revoked' });
      const extra = await ctx.send('POST', `${ORG}/tokens`, { user: 'dev', name: 'spare' }, adminToken);
      const extraId = (extra.json as { id: string }).id;
      const lower = await ctx.send('POST', `${ORG}/tokens/${extraId}/revoke`, undefined, adminToken);
      expect(lower.json).toMatchObject({ id: extraId, revoked_at: expect.any(String) });
    });

    it('refuses a developer any device but their own (404, never 403)', async () => {
      expectError(
        await ctx.send('POST', `${ORG}/devices/${ctx.admin.deviceId}/revoke`, undefined, ctx.developer.token),
        404,
        'not_found',
      );
    });
  });
}
