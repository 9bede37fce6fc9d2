/**
 * The audit webhook part of the store conformance suite: the outbox written with each event (and
 * undone with it), claims that never hand one delivery to two workers and can be taken over when a
 * lease ends, attempts recorded with their consequences (retry, delivered, dead letter), the moves
 * between webhook states, replay and the attempt log (the metrics rollups: metrics.ts).
 */
import type { LatchkeyStore } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import { later, type WebhookFixture, type WebhookKit, webhookKit } from './webhook-kit.js';
import { stateTests } from './webhook-states.js';

export type { WebhookFixture } from './webhook-kit.js';

/** Registers the webhook tests; `fixture` is read when each test runs. */
export function describeWebhookStoreTests(fixture: () => WebhookFixture): void {
  const kit = webhookKit(fixture);
  queueTests(kit);

  outcomeTests(kit);

  stateTests(kit);
}

/** Appending queues deliveries; a rollback queues none; concurrent claims never share one. */
function queueTests(kit: WebhookKit): void {
  const { setUp } = kit;
  it('webhooks: an appended event queues one delivery per active (pending) and dead-lettered (held) webhook, none for a disabled one or a test event', async () => {
    const { store, orgId, webhooks, draft } = await setUp(['active', 'dead_letter', 'disabled']);
    const event = await store.activity.append(orgId, draft());
    await store.activity.append(orgId, draft('webhook_test'));
    const [active, dead, disabled] = webhooks.map((w) => w.id) as [string, string, string];
    expect(await store.deliveries.count(orgId, active, 'pending')).toBe(1);
    expect(await store.deliveries.count(orgId, dead, 'held')).toBe(1);
    expect(await store.deliveries.count(orgId, dead, 'pending')).toBe(0);
    expect(await store.deliveries.count(orgId, disabled, 'pending')).toBe(0);
    const claimed = await store.deliveries.claim({ now: later(1), limit: 10, leaseUntil: later(31) });
    const ours = claimed.filter((c) => c.delivery.organization_id === orgId);
    expect(ours).toHaveLength(1);
    expect(ours[0]!.webhook).toMatchObject({
      id: active,
      url: webhooks[0]!.url,
      secret_sealed: webhooks[0]!.secret_sealed,
    });
    expect(ours[0]!.delivery).toMatchObject({
      event_id: event.id,
      event_seq: event.seq,
      attempts: 0,
      lease_until: later(31),
    });
    // Exactly the event as history returns it.
    const [stored] = await store.activity.listJson({
      organizationId: orgId,
      limit: 1,
      afterSeq: event.seq - 1,
      oldestFirst: true,
    });
    expect(ours[0]!.eventJson).toBe(stored!.json);
    expect(ours[0]!.eventType).toBe('push_applied');
  });

  it('webhooks: a rolled-back event leaves no delivery', async () => {
    const { store, orgId, webhooks, draft } = await setUp(['active']);
    await expect(
      store.transaction(async (tx) => {
        await tx.activity.append(orgId, draft());
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.deliveries.count(orgId, webhooks[0]!.id, 'pending')).toBe(0);
  });

  it('webhooks: concurrent claims never hand one delivery to two workers; an ended lease is taken over', async () => {
    const { store, orgId, draft } = await setUp(['active', 'active']);
    for (let i = 0; i < 12; i++) await store.activity.append(orgId, draft());
    const now = later(1);
    const claims = await Promise.all(
      Array.from({ length: 6 }, () => store.deliveries.claim({ now, limit: 5, leaseUntil: later(31) })),
    );
    const ids = claims
      .flat()
      .filter((c) => c.delivery.organization_id === orgId)
      .map((c) => c.delivery.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(24);
    // Leased: nobody gets them before the lease ends; after it, they are claimable again.
    const during = await store.deliveries.claim({ now: later(30), limit: 100, leaseUntil: later(60) });
    expect(during.filter((c) => c.delivery.organization_id === orgId)).toHaveLength(0);
    const after = await store.deliveries.claim({ now: later(31), limit: 100, leaseUntil: later(61) });
    expect(after.filter((c) => c.delivery.organization_id === orgId)).toHaveLength(24);
  });
}

/** Successes, failures, retries and stale leases. */
function outcomeTests(kit: WebhookKit): void {
  const { setUp, attemptOf, record } = kit;
  it('webhooks: a success delivers; a failure schedules a retry; a stale lease writes nothing', async () => {
    const { store, id, orgId, webhooks, draft } = await setUp(['active']);
    await store.activity.append(orgId, draft());
    await store.activity.append(orgId, draft());
    const webhookId = webhooks[0]!.id;
    const [first, second] = (
      await store.deliveries.claim({ now: later(1), limit: 10, leaseUntil: later(31) })
    ).filter((c) => c.delivery.organization_id === orgId) as [
      Awaited<ReturnType<LatchkeyStore['deliveries']['claim']>>[number],
      Awaited<ReturnType<LatchkeyStore['deliveries']['claim']>>[number],
    ];
    // A failure: retried at the time given, the webhook's failures counted.
    const failed = attemptOf(first, id, later(2), false, 300, later(7));
    expect(await store.deliveries.record(record(failed, 'retry'), later(31))).toBe(true);
    let webhook = (await store.auditWebhooks.get(orgId, webhookId))!;
    expect(webhook.consecutive_failures).toBe(1);
    expect(webhook.last_error).toEqual(failed.error);
    expect(webhook.last_delivery).toMatchObject({
      succeeded: false,
      status_code: 500,
      event_id: first.delivery.event_id,
    });
    expect(
      (await store.deliveries.claim({ now: later(6), limit: 10, leaseUntil: later(36) })).filter(
        (c) => c.delivery.id === first.delivery.id,
      ),
    ).toHaveLength(0);
    const retried = (await store.deliveries.claim({ now: later(7), limit: 10, leaseUntil: later(37) })).find(
      (c) => c.delivery.id === first.delivery.id,
    )!;
    expect(retried.delivery.attempts).toBe(1);
    // The first lease was taken over: recording under it is refused and writes nothing.
    expect(
      await store.deliveries.record(record(attemptOf(first, id, later(8), true), 'delivered'), later(31)),
    ).toBe(false);
    expect((await store.deliveries.attempts(orgId, webhookId, { limit: 10 })).attempts).toHaveLength(1);
    // Successes: delivered (owed no more), failures reset.
    expect(
      await store.deliveries.record(
        record(attemptOf(retried, id, later(8), true, 90), 'delivered'),
        later(37),
      ),
    ).toBe(true);
    expect(
      await store.deliveries.record(
        record(attemptOf(second, id, later(9), true, 95), 'delivered'),
        later(31),
      ),
    ).toBe(true);
    webhook = (await store.auditWebhooks.get(orgId, webhookId))!;
    expect(webhook.consecutive_failures).toBe(0);
    expect(webhook.last_error).toEqual(failed.error);
    expect(webhook.last_delivery).toMatchObject({ succeeded: true, latency_ms: 95 });
    expect(await store.deliveries.count(orgId, webhookId, 'pending')).toBe(0);
    const log = await store.deliveries.attempts(orgId, webhookId, { limit: 2 });
    expect(log.attempts.map((a) => a.at)).toEqual([later(9), later(8)]);
    const rest = await store.deliveries.attempts(orgId, webhookId, { limit: 2, beforeId: log.next! });
    expect(rest).toEqual({
      attempts: [expect.objectContaining({ id: failed.id, error: failed.error, next_attempt_at: later(7) })],
      next: null,
    });
  });
}
