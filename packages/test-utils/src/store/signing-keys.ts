/**
 * The webhook signing keys' part of the store conformance suite: at most one current key per
 * organization even when callers race, rotation in one step, a bounded rotation's count, cut and
 * pruning (`store-signing-key-bounds.ts`), the compare-and-set the re-encrypt routine uses, a
 * restore's deleteAll of one organization's keys, a webhook's scheme and previous secret kept, and
 * nothing of another organization.
 */
import type { LatchkeyStore } from '@latchkey/core';
import type { AuditWebhook, WebhookSigningKey } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import { describeSigningKeyBoundTests } from './signing-key-bounds.js';

export interface SigningKeyFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const T0 = '2026-11-22T10:00:00.000Z';
const T1 = '2026-11-23T10:00:00.000Z';

/** Registers the tests; `fixture` is read when each test runs. */
export function describeSigningKeyStoreTests(fixture: () => SigningKeyFixture): void {
  async function organization() {
    const { store, id } = fixture();
    const orgId = id('org');
    await store.organizations.create({ id: orgId, slug: `sk-${orgId.slice(-8)}`, name: 'K', created_at: T0 });
    const key = (n: string, at = T0): WebhookSigningKey => ({
      id: id('whk'),
      organization_id: orgId,
      public_key: `whpk_${n}`,
      private_key_sealed: `sealed-${n}`,
      created_at: at,
      retires_at: null,
    });
    return { store, id, orgId, key };
  }

  describeSigningKeyBoundTests(organization);

  it('signing keys: racing ensureCurrent calls end with one current key, the same for all', async () => {
    const { store, orgId, key } = await organization();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => store.webhookSigningKeys.ensureCurrent(key(`k${n}`))),
    );
    const listed = await store.webhookSigningKeys.list(orgId);
    expect(listed).toHaveLength(1);
    for (const answer of answers) expect(answer).toEqual(listed[0]);
    expect(await store.webhookSigningKeys.ensureCurrent(key('later'))).toEqual(listed[0]);
  });

  it('signing keys: rotate retires the current key and makes the next current, in one step', async () => {
    const { store, orgId, key } = await organization();
    const first = await store.webhookSigningKeys.ensureCurrent(key('first'));
    const next = key('next', T1);
    const retired = await store.webhookSigningKeys.rotate(next, T1);
    expect(retired).toEqual({ ok: true, retired: { ...first, retires_at: T1 } });
    expect(await store.webhookSigningKeys.list(orgId)).toEqual([{ ...first, retires_at: T1 }, next]);
    expect(await store.webhookSigningKeys.organizationIds()).toContain(orgId);
    // A rotation that fails midway leaves nothing: the unit of work undoes both steps.
    await expect(
      store.transaction(async (tx) => {
        await tx.webhookSigningKeys.rotate(key('undone', T1), T1);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await store.webhookSigningKeys.list(orgId)).toEqual([{ ...first, retires_at: T1 }, next]);
  });

  it('signing keys: replacePrivateKey only where the sealed form is unchanged; other organizations see nothing', async () => {
    const { store, orgId, key } = await organization();
    const other = await organization();
    const current = await store.webhookSigningKeys.ensureCurrent(key('mine'));
    expect(await other.store.webhookSigningKeys.list(other.orgId)).toEqual([]);
    expect(
      await store.webhookSigningKeys.replacePrivateKey(other.orgId, current.id, 'sealed-mine', 'x'),
    ).toBe(false);
    expect(await store.webhookSigningKeys.replacePrivateKey(orgId, current.id, 'stale', 'x')).toBe(false);
    expect(await store.webhookSigningKeys.replacePrivateKey(orgId, current.id, 'sealed-mine', 'moved')).toBe(
      true,
    );
    expect((await store.webhookSigningKeys.list(orgId))[0]!.private_key_sealed).toBe('moved');
  });

  it('signing keys: deleteAll drops every key of one organization only, undone with its transaction', async () => {
    const { store, orgId, key } = await organization();
    const other = await organization();
    await store.webhookSigningKeys.ensureCurrent(key('kept-1'));
    await store.webhookSigningKeys.rotate(key('kept-2', T1), T1);
    const theirs = await other.store.webhookSigningKeys.ensureCurrent(other.key('theirs'));
    const mine = await store.webhookSigningKeys.list(orgId);
    await expect(
      store.transaction(async (tx) => {
        await tx.webhookSigningKeys.deleteAll(orgId);
        expect(await tx.webhookSigningKeys.list(orgId)).toEqual([]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await store.webhookSigningKeys.list(orgId)).toEqual(mine);
    await store.webhookSigningKeys.deleteAll(orgId);
    expect(await store.webhookSigningKeys.list(orgId)).toEqual([]);
    expect(await store.webhookSigningKeys.list(other.orgId)).toEqual([theirs]);
    // The organization may have a current key again.
    expect(await store.webhookSigningKeys.ensureCurrent(key('again'))).toMatchObject({
      public_key: 'whpk_again',
    });
  });

  it('signing keys: a webhook keeps its scheme, and setSecret sets or clears the previous secret', async () => {
    const { store, id, orgId } = await organization();
    const webhook: AuditWebhook = {
      id: id('awh'),
      organization_id: orgId,
      name: 'schemes',
      url: 'https://hooks.example/s',
      status: 'active',
      event_types: [],
      secret_sealed: 'sealed-one',
      signature_scheme: 'standard-webhooks',
      previous_secret: null,
      // As every store reads a webhook without credentials back.
      headers: [],
      client_certificate: null,
      consecutive_failures: 0,
      last_delivery: null,
      last_error: null,
      created_at: T0,
      created_by: 'u',
    };
    await store.auditWebhooks.create(webhook);
    expect(await store.auditWebhooks.get(orgId, webhook.id)).toEqual(webhook);
    const previous = { sealed: 'sealed-one', until: T1 };
    const rotated = await store.auditWebhooks.setSecret(orgId, webhook.id, 'sealed-two', previous);
    expect(rotated).toMatchObject({ secret_sealed: 'sealed-two', previous_secret: previous });
    const changed = await store.auditWebhooks.update(orgId, webhook.id, { signature_scheme: 'latchkey' });
    expect(changed).toMatchObject({
      signature_scheme: 'latchkey',
      previous_secret: previous,
      name: 'schemes',
    });
    const cleared = await store.auditWebhooks.setSecret(orgId, webhook.id, 'sealed-three');
    expect(cleared!.previous_secret).toBeNull();
  });
}
