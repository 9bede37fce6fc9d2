/**
 * The event-type filter part of the store conformance suite: an appended event queues a delivery
 * only for the webhooks whose filter selects its type (names and `*` prefixes; empty: all), in
 * the same step; `update` changes a filter (and name, URL) for the events after it only; `replay`
 * honours the filter as it stands and an `until` (exclusive), queuing in `seq` order.
 */
import type { ActivityDraft, AuditWebhook, LatchkeyStore } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import type { WebhookFixture } from './webhooks.js';

const T0 = '2026-11-23T10:00:00.000Z';
/** A pace that replays these few events in one batch. */
const PACE = { batch: 100, maxEvents: 1_000 };
const later = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

/** Registers the filter tests; `fixture` is read when each test runs. */
export function describeWebhookFilterStoreTests(fixture: () => WebhookFixture): void {
  async function setUp(filters: string[][]) {
    const { store, id } = fixture();
    const orgId = id('org');
    await store.organizations.create({ id: orgId, slug: `wf-${orgId.slice(-8)}`, name: 'F', created_at: T0 });
    const webhooks: AuditWebhook[] = [];
    for (const [i, event_types] of filters.entries()) {
      const webhook: AuditWebhook = {
        id: id('awh'),
        organization_id: orgId,
        name: `filtered ${i}`,
        url: `https://hooks.example/f${i}`,
        status: 'active',
        event_types,
        secret_sealed: `lk1.k1.sealed-${i}`,
        consecutive_failures: 0,
        last_delivery: null,
        last_error: null,
        created_at: later(i),
        created_by: 'admin',
      };
      await store.auditWebhooks.create(webhook);
      webhooks.push(webhook);
    }
    const append = (type: string, at = T0) =>
      store.activity.append(orgId, {
        id: id('evt'),
        type,
        occurred_at: at,
        organization: 'f',
        actor: { type: 'user', id: 'admin' },
        data: {},
      } satisfies ActivityDraft);
    return { store, orgId, webhooks, append };
  }

  /** The event types owed to a webhook, in `seq` order of their deliveries. */
  async function owedTypes(store: LatchkeyStore, webhookId: string) {
    const claimed = await store.deliveries.claim({
      now: later(10_000),
      limit: 1_000,
      leaseUntil: later(20_000),
    });
    // Every claim is given back at once, so the deliveries stay as they were for what comes after.
    await store.deliveries.release(claimed.map((c) => ({ id: c.delivery.id, lease: later(20_000) })));
    return claimed
      .filter((c) => c.delivery.webhook_id === webhookId)
      .sort((a, b) => a.delivery.event_seq - b.delivery.event_seq)
      .map((c) => c.eventType);
  }

  it('webhook filters: an event is queued only for the webhooks whose filter selects it', async () => {
    const { store, orgId, webhooks, append } = await setUp([
      [],
      ['push_*'],
      ['member_added', 'token_*'],
      ['push_applied_but_longer'],
    ]);
    for (const type of ['push_applied', 'member_added', 'push_conflict', 'token_revoked', 'project_created'])
      await append(type);
    const [all, pushes, picked, none] = webhooks.map((w) => w.id) as [string, string, string, string];
    expect(await store.deliveries.count(orgId, all, 'pending')).toBe(5);
    expect(await store.deliveries.count(orgId, pushes, 'pending')).toBe(2);
    expect(await store.deliveries.count(orgId, picked, 'pending')).toBe(2);
    expect(await store.deliveries.count(orgId, none, 'pending')).toBe(0);
    expect(await owedTypes(store, picked)).toEqual(['member_added', 'token_revoked']);
    expect(await owedTypes(store, pushes)).toEqual(['push_applied', 'push_conflict']);
  });

  it('webhook filters: update changes name, URL and filter in one step, for later events only', async () => {
    const { store, orgId, webhooks, append } = await setUp([['push_*']]);
    const hook = webhooks[0]!.id;
    await append('push_applied');
    await append('member_added');
    const updated = await store.auditWebhooks.update(orgId, hook, {
      event_types: ['member_*'],
      name: 'renamed',
    });
    expect(updated).toMatchObject({
      id: hook,
      name: 'renamed',
      url: webhooks[0]!.url,
      event_types: ['member_*'],
    });
    expect(await store.auditWebhooks.get(orgId, hook)).toMatchObject({
      event_types: ['member_*'],
      name: 'renamed',
    });
    await append('push_applied');
    await append('member_removed');
    expect(await owedTypes(store, hook)).toEqual(['push_applied', 'member_removed']);
    expect(
      await store.auditWebhooks.update(orgId, hook, { url: 'https://hooks.example/moved' }),
    ).toMatchObject({
      url: 'https://hooks.example/moved',
      name: 'renamed',
      event_types: ['member_*'],
    });
    expect(await store.auditWebhooks.update(orgId, 'awh_missing0000000000', { name: 'x' })).toBeNull();
    const other = await setUp([[]]);
    expect(await store.auditWebhooks.update(other.orgId, hook, { name: 'x' })).toBeNull();
  });

  it('webhook filters: a rolled-back update changes nothing', async () => {
    const { store, orgId, webhooks } = await setUp([['push_*']]);
    const hook = webhooks[0]!.id;
    await expect(
      store.transaction(async (tx) => {
        await tx.auditWebhooks.update(orgId, hook, { event_types: [] });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await store.auditWebhooks.get(orgId, hook)).toMatchObject({ event_types: ['push_*'] });
  });

  it('webhook filters: replay honours the current filter and until (exclusive), in seq order, once', async () => {
    const { store, orgId, webhooks, append } = await setUp([['token_*']]);
    const hook = webhooks[0]!.id;
    for (const [i, type] of [
      'push_applied',
      'member_added',
      'push_conflict',
      'token_created',
      'push_applied',
    ].entries())
      await append(type, later(i * 10));
    await store.auditWebhooks.update(orgId, hook, { event_types: ['push_*', 'member_added'] });
    // since 10 s (inclusive) until 40 s (exclusive): member_added, push_conflict (token_created is not selected).
    expect(
      await store.deliveries.replay(orgId, hook, { since: later(10), until: later(40) }, later(100), PACE),
    ).toBe(2);
    expect(await store.deliveries.replay(orgId, hook, { since: later(0) }, later(100), PACE)).toBe(2);
    expect(await store.deliveries.replay(orgId, hook, { since: later(0) }, later(100), PACE)).toBe(0);
    expect(await owedTypes(store, hook)).toEqual([
      'push_applied',
      'member_added',
      'push_conflict',
      'token_created',
      'push_applied',
    ]);
  });
}
