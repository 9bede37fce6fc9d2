/** Signed pushes, optimistic concurrency, replay and device checks. */
import { signPush } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADDRESS, ADMIN, type ConformanceContext, ENV_PATH } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

/** Registers these tests of the HTTP conformance suite. */
export function describePushTests(ctx: ConformanceContext): void {
  describe('signed pushes and optimistic concurrency', () => {
    versionTests(ctx);
    authenticityTests(ctx);
    modeTests(ctx);
  });
}

/** Pushes version each key, conflict with nothing written, race to one winner and refuse a replay. */
function versionTests(ctx: ConformanceContext): void {
  const { send, push, events, pull } = ctx;
  it('applies a push, pulls it back, and versions each key from 1', async () => {
    const first = await push(ctx.admin, {
      changes: [{ key: 'DB_URL', value: 'postgres://one', if_version: 0 }],
    });
    expect(first.status).toBe(200);
    const body = first.json as { versions: unknown; event_id: string };
    expect(body.versions).toEqual([{ key: 'DB_URL', version: 1 }]);
    expect(body.event_id).toMatch(/^evt_/);
    const second = await push(ctx.admin, {
      changes: [{ key: 'DB_URL', value: 'postgres://two', if_version: 1 }],
    });
    expect(second.json).toMatchObject({ versions: [{ key: 'DB_URL', version: 2 }] });
    expect((await pull()).find((s) => s.key === 'DB_URL')).toMatchObject({
      value: 'postgres://two',
      version: 2,
    });
    const applied = (await events('push_applied')).find((e) => e.id === body.event_id);
    expect(applied).toMatchObject({
      project: 'web',
      environment: 'prod',
      device_id: ctx.admin.deviceId,
      actor: { id: 'admin' },
    });
  });

  it('deletes with a tombstone version; if_version 0 then means "no live value"', async () => {
    await push(ctx.admin, { changes: [{ key: 'TEMP', value: 'x' }] });
    const deleted = await push(ctx.admin, { changes: [{ key: 'TEMP', delete: true, if_version: 1 }] });
    expect(deleted.json).toMatchObject({ versions: [{ key: 'TEMP', version: 2 }] });
    expect((await pull()).some((s) => s.key === 'TEMP')).toBe(false);
    const again = await push(ctx.admin, { changes: [{ key: 'TEMP', value: 'y', if_version: 0 }] });
    expect(again.json).toMatchObject({ versions: [{ key: 'TEMP', version: 3 }] });
  });

  it('answers a conflict with 409, every conflicting key in the exact shape, and writes nothing', async () => {
    await push(ctx.admin, {
      changes: [
        { key: 'C1', value: 'a' },
        { key: 'C2', value: 'a' },
      ],
    });
    const before = await pull();
    const response = await push(ctx.admin, {
      changes: [
        { key: 'C1', value: 'b', if_version: 7 },
        { key: 'C2', value: 'b', if_version: 0 },
        { key: 'C3', value: 'new', if_version: 0 },
      ],
    });
    const body = expectError(response, 409, 'version_conflict');
    expect(Object.keys(body).sort()).toEqual(['conflicts', 'error']);
    expect(body['conflicts']).toEqual([
      { key: 'C1', server_version: 1, client_if_version: 7 },
      { key: 'C2', server_version: 1, client_if_version: 0 },
    ]);
    expect(await pull()).toEqual(before);
    const conflict = (await events('push_conflict'))[0]!;
    expect(conflict.data).toMatchObject({ conflicts: body['conflicts'] });
  });

  it('lets exactly one of 50 parallel pushes with the same if_version win', async () => {
    const seed = await push(ctx.admin, { changes: [{ key: 'RACE', value: 'seed' }] });
    const version = (seed.json as { versions: { version: number }[] }).versions[0]!.version;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        push(ctx.admin, { changes: [{ key: 'RACE', value: `writer-${i}`, if_version: version }] }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    const conflicts = responses.filter((r) => r.status === 409);
    expect(ok).toHaveLength(1);
    expect(conflicts).toHaveLength(49);
    for (const response of conflicts) {
      expect(response.json).toEqual({
        error: { code: 'version_conflict', message: expect.any(String), status: 409 },
        conflicts: [{ key: 'RACE', server_version: version + 1, client_if_version: version }],
      });
    }
    expect((await pull()).find((s) => s.key === 'RACE')!.version).toBe(version + 1);
  });

  it('refuses a reused nonce with 409 push_replayed', async () => {
    const body = signPush(
      { device_id: ctx.admin.deviceId, changes: [{ key: 'N1', value: 'v' }] },
      ADDRESS,
      ctx.admin.keys.privateKey,
    );
    expect((await send('POST', `${ENV_PATH}/push`, body)).status).toBe(200);
    expectError(await send('POST', `${ENV_PATH}/push`, body), 409, 'push_replayed');
  });
}

/** A push holds only under a good signature from a live device of its sender. */
function authenticityTests(ctx: ConformanceContext): void {
  const { send, push, events, enroll, pull } = ctx;
  it('refuses bad signatures, tampered bodies, other addresses and stale signed_at with 401', async () => {
    const good = signPush(
      { device_id: ctx.admin.deviceId, changes: [{ key: 'S1', value: 'v' }] },
      ADDRESS,
      ctx.admin.keys.privateKey,
    );
    const tampered = { ...good, changes: [{ key: 'S1', value: 'evil' }] };
    expectError(await send('POST', `${ENV_PATH}/push`, tampered), 401, 'invalid_client_signature');
    const elsewhere = signPush(
      { device_id: ctx.admin.deviceId, changes: [{ key: 'S1', value: 'v' }] },
      { ...ADDRESS, environment: 'dev' },
      ctx.admin.keys.privateKey,
    );
    expectError(await send('POST', `${ENV_PATH}/push`, elsewhere), 401, 'invalid_client_signature');
    const garbage = { ...good, nonce: 'A'.repeat(22), client_sig: 'A'.repeat(86) };
    expectError(await send('POST', `${ENV_PATH}/push`, garbage), 401, 'invalid_client_signature');
    const stale = signPush(
      {
        device_id: ctx.admin.deviceId,
        changes: [{ key: 'S1', value: 'v' }],
        signed_at: Math.floor(Date.now() / 1000) - 301,
      },
      ADDRESS,
      ctx.admin.keys.privateKey,
    );
    expectError(await send('POST', `${ENV_PATH}/push`, stale), 401, 'invalid_client_signature');
    const future = signPush(
      {
        device_id: ctx.admin.deviceId,
        changes: [{ key: 'S1', value: 'v' }],
        signed_at: Math.floor(Date.now() / 1000) + 400,
      },
      ADDRESS,
      ctx.admin.keys.privateKey,
    );
    expectError(await send('POST', `${ENV_PATH}/push`, future), 401, 'invalid_client_signature');
    expect((await pull()).some((s) => s.key === 'S1')).toBe(false);
  });

  it('checks the device: unknown, revoked, or owned by someone else is 403', async () => {
    const ghost = { ...ctx.admin, deviceId: 'dev_ffffffffffffffffffffffff' };
    expectError(await push(ghost, { changes: [{ key: 'D1', value: 'v' }] }), 403, 'device_unknown');
    const borrowed = { ...ctx.developer, token: ADMIN };
    expectError(await push(borrowed, { changes: [{ key: 'D1', value: 'v' }] }), 403, 'device_not_owned');
    const spare = await enroll(ADMIN);
    expect((await send('POST', `/api/v2/organizations/acme/devices/${spare.deviceId}/revoke`)).status).toBe(
      200,
    );
    expectError(await push(spare, { changes: [{ key: 'D1', value: 'v' }] }), 403, 'device_revoked');
    const rejected = await events('push_rejected');
    expect(rejected.map((e) => e.data['reason'])).toEqual(
      expect.arrayContaining(['device_unknown', 'device_not_owned', 'device_revoked']),
    );
    expect(rejected.find((e) => e.data['reason'] === 'device_revoked')?.device_id).toBe(spare.deviceId);
    const junk = await send('POST', `${ENV_PATH}/push`, {
      device_id: '<script>'.repeat(20),
      changes: [],
    });
    expectError(junk, 400, 'invalid_request');
    const logged = (await events('push_rejected'))[0]!;
    expect(logged.data).toEqual({ reason: 'invalid_request', status: 400 });
    expect(logged.device_id).toBeUndefined();
  });
}

/** Strict mode, per push and per environment, and force_overwrite with its own permission. */
function modeTests(ctx: ConformanceContext): void {
  const { send, push, events } = ctx;
  it('strict mode: every change needs if_version (428 with keys), force is refused', async () => {
    const missing = await push(ctx.admin, {
      conflict_mode: 'strict',
      changes: [
        { key: 'K1', value: 'v', if_version: 0 },
        { key: 'K2', value: 'v' },
        { key: 'K3', delete: true },
      ],
    });
    const body = expectError(missing, 428, 'if_version_required');
    expect(body['keys']).toEqual(['K2', 'K3']);
    const forced = await push(ctx.admin, {
      conflict_mode: 'strict',
      force_overwrite: true,
      changes: [{ key: 'K1', value: 'v', if_version: 0 }],
    });
    expectError(forced, 400, 'invalid_request');
    const ok = await push(ctx.admin, {
      conflict_mode: 'strict',
      changes: [{ key: 'K1', value: 'v', if_version: 0 }],
    });
    expect(ok.status).toBe(200);
  });

  it('an environment that requires strict mode refuses lenient pushes', async () => {
    const path = '/api/v2/organizations/acme/projects/web/environments/locked';
    const address = { ...ADDRESS, environment: 'locked' };
    expectError(
      await push(ctx.admin, { changes: [{ key: 'L', value: 'v', if_version: 0 }] }, address, path),
      400,
      'invalid_request',
    );
    const strict = await push(
      ctx.admin,
      { conflict_mode: 'strict', changes: [{ key: 'L', value: 'v', if_version: 0 }] },
      address,
      path,
    );
    expect(strict.status).toBe(200);
    const relax = await send('PATCH', path, { require_strict_conflict_mode: false });
    expect(relax.json).toMatchObject({ require_strict_conflict_mode: false });
    expect((await push(ctx.admin, { changes: [{ key: 'L', value: 'w' }] }, address, path)).status).toBe(200);
  });

  it('force_overwrite needs secrets:force_overwrite and records push_force_overwrite', async () => {
    await push(ctx.admin, {
      changes: [
        { key: 'F1', value: 'a' },
        { key: 'F2', value: 'a' },
      ],
    });
    await push(ctx.admin, { changes: [{ key: 'F1', value: 'b' }] });
    const denied = await push(ctx.developer, {
      force_overwrite: true,
      changes: [{ key: 'F1', value: 'dev' }],
    });
    expectError(denied, 403, 'forbidden');
    const forced = await push(ctx.admin, {
      force_overwrite: true,
      changes: [
        { key: 'F1', value: 'forced', if_version: 1 },
        { key: 'F2', value: 'forced' },
      ],
    });
    expect(forced.status).toBe(200);
    expect(forced.json).toMatchObject({
      versions: [
        { key: 'F1', version: 3 },
        { key: 'F2', version: 2 },
      ],
    });
    const event = (await events('push_force_overwrite')).find(
      (e) => e.id === (forced.json as { event_id: string }).event_id,
    );
    expect(event?.data).toEqual({
      conflict_mode: 'lenient',
      keys: [
        { key: 'F1', server_version: 2, client_if_version: 1, new_version: 3, deleted: false },
        { key: 'F2', server_version: 1, client_if_version: null, new_version: 2, deleted: false },
      ],
    });
  });
}
