/** Item: members are changed and removed within reach of the caller's role, never leaving no owner. */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext, OTHER_ORG_ADMIN } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

const ORG = '/api/v2/organizations/acme';
const member = (user: string) => `${ORG}/members/${user}`;

/** Registers the member-lifecycle tests. */
export function describeMemberLifecycleTests(ctx: ConformanceContext): void {
  describe('member lifecycle', () => {
    it('changes a member’s role and grants, and records member_updated', async () => {
      await ctx.addMember('lc-dev', 'developer', [{ project: 'web', environments: ['dev'] }]);
      const changed = await ctx.send('PATCH', member('lc-dev'), {
        role: 'viewer',
        grants: [{ project: 'web', environments: ['prod', 'dev'] }],
      });
      expect(changed.status).toBe(200);
      expect(changed.json).toMatchObject({ user: 'lc-dev', role: 'viewer', grants: [{ project: 'web' }] });
      const [event] = await ctx.events('member_updated');
      expect(event!.data).toMatchObject({ user: 'lc-dev', role: { from: 'developer', to: 'viewer' } });
      // Promoted to admin, grants no longer apply.
      const admin = await ctx.send('PATCH', member('lc-dev'), { role: 'admin' });
      expect(admin.json).toMatchObject({ role: 'admin', grants: [] });
      expectError(await ctx.send('PATCH', member('lc-dev'), {}), 400, 'invalid_request');
      expectError(
        await ctx.send('PATCH', member('lc-dev'), {
          grants: [{ project: 'nope', environments: ['*'] }],
          role: 'viewer',
        }),
        400,
        'invalid_request',
      );
      expectError(await ctx.send('PATCH', member('nobody-here'), { role: 'viewer' }), 404, 'not_found');
    });

    it('never demotes or removes the last owner (409 last_owner)', async () => {
      expectError(await ctx.send('PATCH', member('admin'), { role: 'admin' }), 409, 'last_owner');
      expectError(await ctx.send('DELETE', member('admin')), 409, 'last_owner');
      expect((await ctx.send('GET', `${ORG}/members`)).json).toMatchObject({
        members: expect.arrayContaining([expect.objectContaining({ user: 'admin', role: 'owner' })]),
      });
      // With a second owner, the first may step down, and step back up through the other.
      const second = await ctx.addMember('lc-owner', 'owner');
      expect((await ctx.send('PATCH', member('admin'), { role: 'admin' }, second)).status).toBe(200);
      expect((await ctx.send('PATCH', member('admin'), { role: 'owner' }, second)).status).toBe(200);
      expect((await ctx.send('DELETE', member('lc-owner'))).status).toBe(200);
    });

    it('keeps admins off owners and off the owner role', async () => {
      const admin = await ctx.addMember('lc-admin', 'admin');
      await ctx.addMember('lc-target', 'developer');
      expectError(await ctx.send('PATCH', member('admin'), { role: 'viewer' }, admin), 403, 'forbidden');
      expectError(await ctx.send('DELETE', member('admin'), undefined, admin), 403, 'forbidden');
      expectError(await ctx.send('PATCH', member('lc-target'), { role: 'owner' }, admin), 403, 'forbidden');
      expect((await ctx.send('PATCH', member('lc-target'), { role: 'admin' }, admin)).status).toBe(200);
      // Developers and viewers manage nobody; another organization's owner sees nothing.
      expectError(
        await ctx.send('PATCH', member('lc-target'), { role: 'viewer' }, ctx.developer.token),
        403,
        'forbidden',
      );
      expectError(
        await ctx.send('DELETE', member('lc-target'), undefined, ctx.viewerToken),
        403,
        'forbidden',
      );
      expectError(
        await ctx.send('DELETE', member('lc-target'), undefined, OTHER_ORG_ADMIN),
        404,
        'not_found',
      );
      expect(
        ((await ctx.send('GET', `${ORG}/members`)).json as { members: { user: string }[] }).members.map(
          (m) => m.user,
        ),
      ).toContain('lc-target');
    });

    it('removes a member: their tokens stop working at once and their devices are revoked', async () => {
      const token = await ctx.addMember('lc-leaver', 'developer', [
        { project: 'web', environments: ['prod'] },
      ]);
      const device = await ctx.enroll(token);
      expect((await ctx.send('GET', `${ORG}/projects`, undefined, token)).status).toBe(200);
      const removed = await ctx.send('DELETE', member('lc-leaver'), undefined, ADMIN);
      expect(removed.status).toBe(200);
      expect(removed.json).toEqual({
        user: 'lc-leaver',
        role: 'developer',
        tokens_revoked: 1,
        devices_revoked: 1,
      });
      expectError(await ctx.send('GET', `${ORG}/projects`, undefined, token), 401, 'unauthenticated');
      const devices = (await ctx.send('GET', `${ORG}/devices`)).json as {
        devices: { id: string; status: string }[];
      };
      expect(devices.devices.find((d) => d.id === device.deviceId)?.status).toBe('revoked');
      const [event] = await ctx.events('member_removed');
      expect(event!.data).toEqual({
        user: 'lc-leaver',
        role: 'developer',
        tokens_revoked: 1,
        devices_revoked: 1,
      });
      // Added again, the old token stays dead.
      await ctx.addMember('lc-leaver', 'viewer');
      expectError(await ctx.send('GET', `${ORG}/projects`, undefined, token), 401, 'unauthenticated');
      expectError(await ctx.send('DELETE', member('lc-nobody')), 404, 'not_found');
    });
  });
}
