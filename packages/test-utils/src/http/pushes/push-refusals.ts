/**
 * The activity log after refused pushes, whoever refused them (the pipeline for the permission and
 * the input, the push service for the device, the signature, the mode, the nonce and the conflict):
 * exactly one event per refusal, of the right type, with its data, device and actor, in order.
 */
import { type ActivityEvent, signPush } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADDRESS, type ConformanceContext, ENV_PATH } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

/** What a test compares of an event: everything but its id, time and place in the chain. */
function shape(event: ActivityEvent) {
  return {
    type: event.type,
    data: event.data,
    actor: event.actor.id,
    project: event.project,
    environment: event.environment,
    device_id: event.device_id ?? null,
  };
}

/** Registers these tests of the HTTP conformance suite. */
export function describePushRefusalTests(ctx: ConformanceContext): void {
  const { send, push, events } = ctx;

  describe('refused pushes in the activity log', () => {
    it('records each refusal once, where it was decided, with its code, status and device, in order', async () => {
      const admin = ctx.admin.deviceId;
      const before = (await events()).length;
      await push(ctx.admin, { changes: [{ key: 'R1', value: 'a' }] });
      // The push service: the nonce, the conflict, the signature, the device, the mode.
      const signed = signPush(
        { device_id: admin, changes: [{ key: 'R2', value: 'a' }] },
        ADDRESS,
        ctx.admin.keys.privateKey,
      );
      expect((await send('POST', `${ENV_PATH}/push`, signed)).status).toBe(200);
      expectError(await send('POST', `${ENV_PATH}/push`, signed), 409, 'push_replayed');
      const conflict = await push(ctx.admin, { changes: [{ key: 'R1', value: 'b', if_version: 5 }] });
      expectError(conflict, 409, 'version_conflict');
      const tampered = { ...signed, nonce: 'B'.repeat(22) };
      expectError(await send('POST', `${ENV_PATH}/push`, tampered), 401, 'invalid_client_signature');
      const ghost = { ...ctx.admin, deviceId: 'dev_eeeeeeeeeeeeeeeeeeeeeeee' };
      expectError(await push(ghost, { changes: [{ key: 'R3', value: 'a' }] }), 403, 'device_unknown');
      const forced = await push(ctx.developer, {
        force_overwrite: true,
        changes: [{ key: 'R1', value: 'c' }],
      });
      expectError(forced, 403, 'forbidden');
      const strict = await push(ctx.admin, { conflict_mode: 'strict', changes: [{ key: 'R4', value: 'a' }] });
      expectError(strict, 428, 'if_version_required');
      // The pipeline: the role's permission (before the body is read), then the input.
      expectError(await send('POST', `${ENV_PATH}/push`, signed, ctx.viewerToken), 403, 'forbidden');
      const invalid = await send('POST', `${ENV_PATH}/push`, { device_id: admin, changes: 'none' });
      expectError(invalid, 400, 'invalid_request');

      const logged = (await events()).slice(0, (await events()).length - before).reverse();
      const rejected = (reason: string, status: number, user = 'admin', device: string | null = admin) => ({
        type: 'push_rejected',
        data: { reason, status },
        actor: user,
        project: 'web',
        environment: 'prod',
        device_id: device,
      });
      expect(logged.map(shape)).toEqual([
        expect.objectContaining({ type: 'push_applied', device_id: admin }),
        expect.objectContaining({ type: 'push_applied', device_id: admin }),
        rejected('push_replayed', 409),
        {
          type: 'push_conflict',
          data: {
            conflict_mode: 'lenient',
            conflicts: [{ key: 'R1', server_version: 1, client_if_version: 5 }],
          },
          actor: 'admin',
          project: 'web',
          environment: 'prod',
          device_id: admin,
        },
        rejected('invalid_client_signature', 401),
        rejected('device_unknown', 403, 'admin', ghost.deviceId),
        rejected('forbidden', 403, 'dev', ctx.developer.deviceId),
        rejected('if_version_required', 428),
        rejected('forbidden', 403, 'viewer', null),
        rejected('invalid_request', 400),
      ]);
      // Each refusal is an event of its own.
      expect(new Set(logged.map((e) => e.id)).size).toBe(logged.length);
    });
  });
}
