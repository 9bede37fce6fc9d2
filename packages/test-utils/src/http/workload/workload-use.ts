/**
 * Item: what a workload token can do. Only its identity's actions on its grants, for its lifetime;
 * pushes signed by its own ephemeral device and strict; events acted by `{type: "workload"}`; the
 * device expires with the token and shows so.
 */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADDRESS, type ConformanceContext, ENV_PATH } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { describeWorkloadActionTests } from './workload-actions.js';
import { describeWorkloadGateTests } from './workload-gates.js';
import { createIdentity, push, session } from './workload-helpers.js';

const DEVICES = '/api/v2/organizations/acme/devices';

export function describeWorkloadUseTests(ctx: ConformanceContext): void {
  describe('workload tokens in use', () => {
    it('pulls and pushes strict on its grants, as the workload, and nothing more', async () => {
      const id = await createIdentity(ctx, 'ci-use');
      const ci = await session(ctx, 'ci-use');
      const pushed = await push(ctx, ci, [{ key: 'CI_PUSHED', value: 'from-ci', if_version: 0 }]);
      expect(pushed.status, pushed.text).toBe(200);
      const [event] = await ctx.events('push_applied');
      expect(event).toMatchObject({ actor: { type: 'workload', id }, device_id: ci.deviceId });
      const pulled = await ctx.send('GET', `${ENV_PATH}/secrets`, undefined, ci.token);
      expect(pulled.status).toBe(200);
      expect(JSON.stringify(pulled.json)).toContain('from-ci');
      // Lenient is refused: a workload's pushes are strict always.
      expectError(
        await push(ctx, ci, [{ key: 'CI_LENIENT', value: 'x' }], false),
        428,
        'if_version_required',
      );
      // Off its grants, and outside its actions.
      const dev = '/api/v2/organizations/acme/projects/web/environments/dev';
      expectError(await ctx.send('GET', `${dev}/secrets`, undefined, ci.token), 403, 'forbidden');
      const devAddress = { ...ADDRESS, environment: 'dev' };
      expectError(
        await push(ctx, ci, [{ key: 'K', value: 'v', if_version: 0 }], true, dev, devAddress),
        403,
        'forbidden',
      );
      for (const [method, path] of [
        ['GET', '/api/v2/organizations/acme'],
        ['GET', DEVICES],
        ['GET', '/api/v2/organizations/acme/workload-identities'],
        ['GET', '/api/v2/organizations/acme/history'],
        ['GET', '/api/v2/organizations/acme/activity/export'],
      ] as const)
        expectError(await ctx.send(method, path, undefined, ci.token), 403, 'forbidden');
      expectError(
        await ctx.send('GET', '/api/v2/organizations/globex', undefined, ci.token),
        404,
        'not_found',
      );
    });

    it('signs only with its own device: not a member’s, not another token’s', async () => {
      await createIdentity(ctx, 'ci-device');
      const one = await session(ctx, 'ci-device');
      const two = await session(ctx, 'ci-device');
      expectError(
        await push(ctx, { ...one, deviceId: two.deviceId, keys: two.keys }, [
          { key: 'K2', value: 'v', if_version: 0 },
        ]),
        403,
        'device_not_owned',
      );
      expectError(
        await push(ctx, { ...one, deviceId: ctx.admin.deviceId, keys: ctx.admin.keys }, [
          { key: 'K2', value: 'v', if_version: 0 },
        ]),
        403,
        'device_not_owned',
      );
      // A member cannot sign with a workload's device either.
      const asMember = { ...one, token: ctx.developer.token };
      expectError(
        await push(ctx, asMember, [{ key: 'K2', value: 'v', if_version: 0 }]),
        403,
        'device_not_owned',
      );
    });

    it('stops at its expiry, and its device shows as expired', async () => {
      await createIdentity(ctx, 'ci-short', { token_ttl_seconds: 60 });
      const start = Date.now();
      ctx.clock.pinnedMs = start;
      const ci = await session(ctx, 'ci-short');
      expect(Date.parse(ci.expiresAt)).toBe(start + 60_000);
      ctx.clock.pinnedMs = start + 59_000;
      expect((await ctx.send('GET', `${ENV_PATH}/secrets`, undefined, ci.token)).status).toBe(200);
      const listed = async () =>
        (
          (await ctx.send('GET', DEVICES)).json as {
            devices: { id: string; status: string; expires_at?: string }[];
          }
        ).devices.find((d) => d.id === ci.deviceId);
      expect(await listed()).toMatchObject({ status: 'active', expires_at: ci.expiresAt });
      ctx.clock.pinnedMs = start + 60_000;
      expectError(await ctx.send('GET', `${ENV_PATH}/secrets`, undefined, ci.token), 401, 'unauthenticated');
      expect((await listed())?.status).toBe('expired');
    });
  });
  describeWorkloadActionTests(ctx);
  describeWorkloadGateTests(ctx);
}
