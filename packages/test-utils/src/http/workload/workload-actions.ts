/**
 * Item: a workload token acts only by its identity's actions, and only on its grants. Without
 * `secrets:push` a push is refused, without `secrets:read` a pull, without `changes:propose` a
 * proposal (each 403 `forbidden` with the documented body, writing nothing but a refused push's
 * `push_rejected`); an identity granted one environment is refused the others.
 */
import { signChangeRequest } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADDRESS, type ConformanceContext, ENV_PATH } from '../harness/context.js';
import type { TargetResponse } from '../harness/http-target.js';
import { createIdentity, push, session } from './workload-helpers.js';

const DEV_PATH = '/api/v2/organizations/acme/projects/web/environments/dev';
const DEV_ADDRESS = { ...ADDRESS, environment: 'dev' };

/** The documented 403: `{error: {code: "forbidden", message, status: 403}}`, the permission named. */
function expectForbidden(answer: TargetResponse, permission: string): void {
  expect(answer.status, answer.text).toBe(403);
  expect(answer.json).toEqual({
    error: { code: 'forbidden', message: `Your role does not allow ${permission} here.`, status: 403 },
  });
}

/** The keys of `path` as the owner reads them. */
async function keysOf(ctx: ConformanceContext, path: string): Promise<string> {
  const pulled = await ctx.send('GET', `${path}/secrets`);
  expect(pulled.status, pulled.text).toBe(200);
  return pulled.text;
}

export function describeWorkloadActionTests(ctx: ConformanceContext): void {
  describe('workload tokens: actions and grants', () => {
    it('refuses a push without secrets:push, a pull without secrets:read, a proposal without changes:propose', async () => {
      const readOnly = await createIdentity(ctx, 'ci-read-only', { actions: ['secrets:read'] });
      const reader = await session(ctx, 'ci-read-only');
      expect((await ctx.send('GET', `${ENV_PATH}/secrets`, undefined, reader.token)).status).toBe(200);
      const refused = await push(ctx, reader, [{ key: 'CI_READ_ONLY', value: 'no', if_version: 0 }]);
      expectForbidden(refused, 'secrets:push');
      const proposal = signChangeRequest(
        {
          device_id: reader.deviceId,
          title: 'no',
          changes: [{ key: 'CI_READ_ONLY', value: 'no', if_version: 0 }],
        },
        ADDRESS,
        reader.keys.privateKey,
      );
      expectForbidden(
        await ctx.send('POST', `${ENV_PATH}/change-requests`, proposal, reader.token),
        'changes:propose',
      );
      expect(await keysOf(ctx, ENV_PATH)).not.toContain('CI_READ_ONLY');
      const acted = (await ctx.events()).filter((e) => (e.actor as { id?: string }).id === readOnly);
      // The refused push is audited as such; nothing was applied or proposed.
      expect(acted.map((e) => e.type)).toEqual(['push_rejected', 'workload_token_issued']);

      await createIdentity(ctx, 'ci-push-only', { actions: ['secrets:push'] });
      const pusher = await session(ctx, 'ci-push-only');
      expectForbidden(await ctx.send('GET', `${ENV_PATH}/secrets`, undefined, pusher.token), 'secrets:read');
      const pushed = await push(ctx, pusher, [{ key: 'CI_PUSH_ONLY', value: 'yes', if_version: 0 }]);
      expect(pushed.status, pushed.text).toBe(200);
      expect(await keysOf(ctx, ENV_PATH)).toContain('CI_PUSH_ONLY');
    });

    it('acts only on its grants: an identity of web/dev is refused web/prod, reading and pushing', async () => {
      await createIdentity(ctx, 'ci-dev-only', { grants: [{ project: 'web', environments: ['dev'] }] });
      const ci = await session(ctx, 'ci-dev-only');
      expect((await ctx.send('GET', `${DEV_PATH}/secrets`, undefined, ci.token)).status).toBe(200);
      const onDev = await push(
        ctx,
        ci,
        [{ key: 'CI_DEV_ONLY', value: 'dev', if_version: 0 }],
        true,
        DEV_PATH,
        DEV_ADDRESS,
      );
      expect(onDev.status, onDev.text).toBe(200);
      expectForbidden(await ctx.send('GET', `${ENV_PATH}/secrets`, undefined, ci.token), 'secrets:read');
      expectForbidden(
        await push(ctx, ci, [{ key: 'CI_DEV_ONLY', value: 'prod', if_version: 0 }]),
        'secrets:push',
      );
      expect(await keysOf(ctx, ENV_PATH)).not.toContain('CI_DEV_ONLY');
      expect(await keysOf(ctx, DEV_PATH)).toContain('CI_DEV_ONLY');
    });
  });
}
