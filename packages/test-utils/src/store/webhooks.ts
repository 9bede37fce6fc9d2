/**
 * The audit webhook part of the store conformance suite: the outbox written with each event (and
 * undone with it), claims that never hand one delivery to two workers and can be taken over when a
 * lease ends, attempts recorded with their consequences (retry, delivered, dead letter), the moves
 * between webhook states, replay and the attempt log (the metrics rollups: metrics.ts).
 */
import type {
  ActivityDraft,
  AttemptRecord,
  AuditWebhook,
  DeliveryAttempt,
  LatchkeyStore,
} from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';

export interface WebhookFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const T0 = '2026-11-22T10:00:00.000Z';
/** A pace that replays these few events in one batch. */
const PACE = { batch: 100, maxEvents: 1_000 };
const later = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

/** Registers the webhook tests; `fixture` is read when each test runs. */
export function describeWebhookStoreTests(fixture: () => WebhookFixture): void {
  const kit = webhookKit(fixture);
  queueTests(kit);

  outcomeTests(kit);

  stateTests(kit);
}

type WebhookKit = ReturnType<typeof webhookKit>;

/** What the webhook tests share: an organization with webhooks in given states, an attempt and its record. */
function webhookKit(fixture: () => WebhookFixture) {
  /** A fresh organization with webhooks in the given states. */
  async function setUp(statuses: AuditWebhook['status'][]) {
    const { store, id } = fixture();
    const orgId = id('org');
    await store.organizations.create({ id: orgId, slug: `wh-${orgId.slice(-8)}`, name: 'W', created_at: T0 });
    const webhooks: AuditWebhook[] = [];
    for (const [i, status] of statuses.entries()) {
      const webhook: AuditWebhook = {
        id: id('awh'),
        organization_id: orgId,
        name: `hook ${i}`,
        url: `https://hooks.example/${i}`,
        status,
        event_types: [],
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
    const draft = (type = 'push_applied', at = T0): ActivityDraft => ({
      id: id('evt'),
      type,
      occurred_at: at,
      organization: 'w',
      actor: { type: 'user', id: 'admin' },
      data: { note: 'a "quoted" \\ value' },
    });
    return { store, id, orgId, webhooks, draft };
  }

  const attemptOf = (
    claimed: {
      delivery: {
        id: string;
        organization_id: string;
        webhook_id: string;
        event_id: string;
        attempts: number;
      };
    },
    id: (prefix: string) => string,
    at: string,
    succeeded: boolean,
    latencyMs = 120,
    nextAttemptAt: string | null = null,
  ): DeliveryAttempt => ({
    id: id('att'),
    organization_id: claimed.delivery.organization_id,
    webhook_id: claimed.delivery.webhook_id,
    delivery_id: claimed.delivery.id,
    event_id: claimed.delivery.event_id,
    event_type: 'push_applied',
    attempt: claimed.delivery.attempts + 1,
    at,
    succeeded,
    status_code: succeeded ? 200 : 500,
    latency_ms: latencyMs,
    error: succeeded
      ? null
      : { at, code: 'http_status', status_code: 500, message: 'the receiver answered 500' },
    next_attempt_at: nextAttemptAt,
  });

  const record = (attempt: DeliveryAttempt, outcome: AttemptRecord['outcome']): AttemptRecord => ({
    attempt,
    outcome,
  });
  return { fixture, setUp, attemptOf, record };
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

/** Dead-lettering, disabling, replay, and another organization. */
function stateTests(kit: WebhookKit): void {
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
