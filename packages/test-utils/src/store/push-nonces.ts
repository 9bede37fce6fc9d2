/**
 * The push's nonce as `applyPush` consumes it (its `nonce` input): in the same step as the compare
 * and set, exactly as `nonces.consume` would. A replay answers `replayed` and writes nothing; a
 * conflict leaves the nonce consumed and no value; of concurrent pushes with one nonce, one applies.
 */
import type { ApplyPushInput, LatchkeyStore } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import { createOrgEnvironment } from './org-environment.js';
import { pushTemplate } from './push-template.js';

export interface PushNonceFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const T0 = '2026-11-27T00:00:00.000Z';

/** Registers the tests; `fixture` is read when each test runs. */
export function describePushNonceTests(fixture: () => PushNonceFixture): void {
  const push = (
    orgId: string,
    envId: string,
    nonce: string,
    changes: ApplyPushInput['changes'],
  ): ApplyPushInput => ({
    organizationId: orgId,
    environmentId: envId,
    changes,
    force: false,
    now: T0,
    eventTemplate: pushTemplate(fixture().id('evt'), 'pn', T0),
    nonce: { scope: `${orgId}/device`, value: nonce, expiresAt: Date.now() + 60_000, now: Date.now() },
  });
  const live = async (envId: string) =>
    (await fixture().store.secrets.listLive(envId)).map((s) => [s.key, s.value, s.version]);

  it('push nonce: applyPush consumes it; a replay answers replayed and writes nothing', async () => {
    const { store, id } = fixture();
    const { orgId, envId } = await createOrgEnvironment(store, id, 'pn', T0);
    expect(
      await store.secrets.applyPush(push(orgId, envId, 'n-1', [{ key: 'A', value: '1' }])),
    ).toMatchObject({
      ok: true,
      versions: [{ key: 'A', version: 1 }],
    });
    expect(await store.secrets.applyPush(push(orgId, envId, 'n-1', [{ key: 'B', value: '1' }]))).toEqual({
      ok: false,
      replayed: true,
    });
    expect(await live(envId)).toEqual([['A', '1', 1]]);
    // The same nonce as `nonces.consume` sees it: used.
    expect(await store.nonces.consume(`${orgId}/device`, 'n-1', Date.now() + 60_000, Date.now())).toBe(false);
  });

  it('push nonce: a conflict leaves the nonce consumed and writes no value', async () => {
    const { store, id } = fixture();
    const { orgId, envId } = await createOrgEnvironment(store, id, 'pn', T0);
    const conflict = await store.secrets.applyPush(
      push(orgId, envId, 'n-2', [{ key: 'NEW', value: '1', if_version: 3 }]),
    );
    expect(conflict).toEqual({
      ok: false,
      conflicts: [{ key: 'NEW', server_version: 0, client_if_version: 3 }],
    });
    expect(await live(envId)).toEqual([]);
    expect(
      await store.secrets.applyPush(push(orgId, envId, 'n-2', [{ key: 'NEW', value: '1', if_version: 0 }])),
    ).toEqual({ ok: false, replayed: true });
  });

  it('push nonce: of concurrent pushes with one nonce, exactly one applies', async () => {
    const { store, id } = fixture();
    const { orgId, envId } = await createOrgEnvironment(store, id, 'pn', T0);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        store.secrets.applyPush(push(orgId, envId, 'n-3', [{ key: `K${i % 3}`, value: String(i) }])),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.replayed)).toHaveLength(11);
    expect(await live(envId)).toHaveLength(1);
  });
}
