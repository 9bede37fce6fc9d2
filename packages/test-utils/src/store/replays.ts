/**
 * The replay part of the store conformance suite: a replay of a long history never queues it all
 * at once. `replay` counts what it covers (refusing more than the pace allows, or a second replay
 * of a webhook while one is under way) and queues one batch; `advanceReplays` queues the next only
 * once the webhook has nothing due, so an event appended during the replay is claimed before the
 * replay's next batch is even queued.
 */
import type { ActivityDraft, ClaimedDelivery, LatchkeyStore } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';

export interface ReplayFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const T0 = '2026-11-23T10:00:00.000Z';
const later = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const HISTORY = 230;
const PACE = { batch: 40, maxEvents: 1_000 };

/** Registers the replay tests; `fixture` is read when each test runs. */
export function describeReplayStoreTests(fixture: () => ReplayFixture): void {
  it('replays: a long history is queued a batch at a time, and a live event goes before the next batch', async () => {
    const { store, id } = fixture();
    const orgId = id('org');
    await store.organizations.create({ id: orgId, slug: `rp-${orgId.slice(-8)}`, name: 'R', created_at: T0 });
    const draft = (at: string, type = 'push_applied'): ActivityDraft => ({
      id: id('evt'),
      type,
      occurred_at: at,
      organization: 'r',
      actor: { type: 'user', id: 'admin' },
      data: {},
    });
    for (let i = 0; i < HISTORY; i++) await store.activity.append(orgId, draft(later(i)));
    const hook = (n: number) => ({
      id: id('awh'),
      organization_id: orgId,
      name: `replayed ${n}`,
      url: `https://hooks.example/replay/${n}`,
      status: 'active' as const,
      event_types: [],
      secret_sealed: 'lk1.k1.sealed',
      consecutive_failures: 0,
      last_delivery: null,
      last_error: null,
      created_at: later(HISTORY),
      created_by: 'admin',
    });
    const [webhook, other] = [hook(1), hook(2)];
    await store.auditWebhooks.create(webhook);
    await store.auditWebhooks.create(other);
    const at = later(HISTORY + 10);
    const pending = () => store.deliveries.count(orgId, webhook.id, 'pending');

    // More than the pace allows is refused, writing nothing.
    const tight = { batch: PACE.batch, maxEvents: HISTORY - 1 };
    expect(await store.deliveries.replay(orgId, other.id, { since: T0 }, at, tight)).toBe('limit');
    expect(await store.deliveries.count(orgId, other.id, 'pending')).toBe(0);
    expect(await store.deliveries.advanceReplays(at, PACE.batch)).toBe(0);
    expect(await store.deliveries.count(orgId, other.id, 'pending')).toBe(0);

    // The replay covers every event, and queues one batch of them.
    expect(await store.deliveries.replay(orgId, webhook.id, { since: T0 }, at, PACE)).toBe(HISTORY);
    expect(await pending()).toBe(PACE.batch);
    expect(await store.deliveries.replay(orgId, webhook.id, { since: T0 }, at, PACE)).toBe('busy');
    // Nothing more while the webhook has deliveries due.
    expect(await store.deliveries.advanceReplays(at, PACE.batch)).toBe(0);
    expect(await pending()).toBe(PACE.batch);

    // An event appended during the replay is queued at once, live.
    const live = await store.activity.append(orgId, draft(at, 'member_added'));
    expect(await pending()).toBe(PACE.batch + 1);

    const sent: ClaimedDelivery[] = [];
    let rounds = 0;
    for (;;) {
      const due = await claimAll(store, webhook.id, at, later(HISTORY + 100 + rounds));
      await deliver(store, id, due, at);
      sent.push(...due);
      rounds++;
      if (rounds === 1) {
        // The live event went with the first batch, before the replay's second batch was queued.
        expect(due.map((c) => c.delivery.event_id)).toContain(live.id);
        expect(due).toHaveLength(PACE.batch + 1);
      }
      const queued = await store.deliveries.advanceReplays(at, PACE.batch);
      if (queued === 0) break;
      expect(queued).toBeLessThanOrEqual(PACE.batch);
      expect(await pending()).toBe(queued);
      expect(rounds).toBeLessThan(20);
    }
    const history = sent.filter((c) => c.delivery.event_id !== live.id);
    expect(new Set(history.map((c) => c.delivery.event_id)).size).toBe(HISTORY);
    expect(history.map((c) => c.delivery.event_seq)).toEqual([...Array(HISTORY).keys()].map((i) => i + 1));
    expect(rounds).toBe(Math.ceil(HISTORY / PACE.batch));
    // The replay has ended: another may start (the last event of the history and the live one).
    expect(await store.deliveries.replay(orgId, webhook.id, { since: later(HISTORY - 1) }, at, PACE)).toBe(2);
  });
}

/** Claims every due delivery of `webhookId` (claims take turns among the store's webhooks). */
async function claimAll(
  store: LatchkeyStore,
  webhookId: string,
  now: string,
  leaseUntil: string,
): Promise<ClaimedDelivery[]> {
  const ours: ClaimedDelivery[] = [];
  for (let i = 0; i < 20; i++) {
    const claimed = await store.deliveries.claim({ now, limit: 500, leaseUntil });
    if (claimed.length === 0) break;
    ours.push(...claimed.filter((c) => c.delivery.webhook_id === webhookId));
  }
  return ours.sort((a, b) => a.delivery.event_seq - b.delivery.event_seq);
}

/** Records each claimed delivery as delivered. */
async function deliver(
  store: LatchkeyStore,
  id: (prefix: string) => string,
  claimed: ClaimedDelivery[],
  at: string,
): Promise<void> {
  const recorded = await store.deliveries.recordMany(
    claimed.map((c) => ({
      attempt: {
        id: id('att'),
        organization_id: c.delivery.organization_id,
        webhook_id: c.delivery.webhook_id,
        delivery_id: c.delivery.id,
        event_id: c.delivery.event_id,
        event_type: 'push_applied',
        attempt: c.delivery.attempts + 1,
        at,
        succeeded: true,
        status_code: 200,
        latency_ms: 5,
        error: null,
        next_attempt_at: null,
      },
      outcome: 'delivered' as const,
      lease: c.delivery.lease_until,
    })),
  );
  expect(recorded.every(Boolean)).toBe(true);
}
