import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import { later, PACE, T0, type WebhookKit } from './webhook-kit.js';

/** Dead-lettering, disabling, replay, and another organization. */
export function stateTests(kit: WebhookKit): void {
  const { setUp, attemptOf, record } = kit;
  it('webhooks: dead-lettering holds what is owed, new events are held too, enable releases them all', async () => {
    const { store, id, orgId, webhooks, draft } = await setUp(['active']);
    const webhookId = webhooks[0]!.id;
    for (let i = 0; i < 3; i++) await store.activity.append(orgId, draft());
    const [claimed] = (
      await store.deliveries.claim({ now: later(1), limit: 1, leaseUntil: later(31) })
    ).filter((c) => c.delivery.organization_id === orgId);
    expect(
      await store.deliveries.record(
        record(attemptOf(claimed!, id, later(2), false), 'dead_letter'),
        later(31),
      ),
    ).toBe(true);
    expect((await store.auditWebhooks.get(orgId, webhookId))!.status).toBe('dead_letter');
    expect(await store.deliveries.count(orgId, webhookId, 'held')).toBe(3);
    expect(await store.deliveries.count(orgId, webhookId, 'pending')).toBe(0);
    await store.activity.append(orgId, draft());
    expect(await store.deliveries.count(orgId, webhookId, 'held')).toBe(4);
    expect(
      (await store.deliveries.claim({ now: later(100), limit: 100, leaseUntil: later(130) })).filter(
        (c) => c.delivery.organization_id === orgId,
      ),
    ).toHaveLength(0);
    const enabled = (await store.auditWebhooks.enable(orgId, webhookId, later(200)))!;
    expect(enabled).toMatchObject({ released: 4, webhook: { status: 'active', consecutive_failures: 0 } });
    const released = (
      await store.deliveries.claim({ now: later(200), limit: 100, leaseUntil: later(230) })
    ).filter((c) => c.delivery.organization_id === orgId);
    expect(released).toHaveLength(4);
    expect(released.every((c) => c.delivery.attempts === 0)).toBe(true);
  });

  it('webhooks: disabling drops what is owed and queues nothing new; replay queues the log since a time, once', async () => {
    const { store, orgId, webhooks, draft } = await setUp(['active']);
    const webhookId = webhooks[0]!.id;
    await store.activity.append(orgId, draft('push_applied', later(0)));
    await store.activity.append(orgId, draft('push_applied', later(10)));
    expect((await store.auditWebhooks.disable(orgId, webhookId))!.status).toBe('disabled');
    expect(await store.deliveries.count(orgId, webhookId, 'pending')).toBe(0);
    await store.activity.append(orgId, draft('push_applied', later(20)));
    expect(await store.deliveries.count(orgId, webhookId, 'pending')).toBe(0);
    expect(await store.deliveries.replay(orgId, webhookId, { since: later(5) }, later(30), PACE)).toBe(0);
    await store.auditWebhooks.enable(orgId, webhookId, later(30));
    expect(await store.deliveries.replay(orgId, webhookId, { since: later(5) }, later(30), PACE)).toBe(2);
    // Already owed: not queued twice.
    expect(await store.deliveries.replay(orgId, webhookId, { since: later(0) }, later(31), PACE)).toBe(1);
    expect(await store.deliveries.count(orgId, webhookId, 'pending')).toBe(3);
  });

  it('webhooks: another organization sees none of them', async () => {
    const a = await setUp(['active']);
    const b = await setUp(['active']);
    const foreign = a.webhooks[0]!.id;
    expect(await b.store.auditWebhooks.get(b.orgId, foreign)).toBeNull();
    expect(await b.store.auditWebhooks.disable(b.orgId, foreign)).toBeNull();
    expect(await b.store.auditWebhooks.enable(b.orgId, foreign, T0)).toBeNull();
    expect(await b.store.auditWebhooks.setSecret(b.orgId, foreign, 'x')).toBeNull();
    expect((await b.store.auditWebhooks.list(b.orgId)).map((w) => w.id)).toEqual([b.webhooks[0]!.id]);
    const withWebhooks = await b.store.auditWebhooks.organizationIds();
    expect(withWebhooks).toEqual(expect.arrayContaining([a.orgId, b.orgId]));
    expect(new Set(withWebhooks).size).toBe(withWebhooks.length);
    expect((await b.store.deliveries.attempts(b.orgId, foreign, { limit: 10 })).attempts).toEqual([]);
    expect((await a.store.auditWebhooks.get(a.orgId, foreign))!.status).toBe('active');
  });
}
