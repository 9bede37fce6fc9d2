/**
 * Recording outcomes in batches, part of the store conformance suite: `recordMany` leaves exactly
 * what `record` called for each in turn leaves (webhook health, the dead-letter transition at the
 * very attempt that makes it, deliveries' states, the attempt log, rollups and running totals), a
 * record whose lease was lost is skipped while the others are kept, and batches recorded at once
 * over the same webhooks in opposite orders neither deadlock nor lose a count.
 */
import type {
  AttemptRecord,
  AuditWebhook,
  ClaimedDelivery,
  DeliveryAttempt,
  LatchkeyStore,
  LeasedAttemptRecord,
  Rollup,
} from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';

export interface RecordManyFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const LEASE = at(600);

/** One step of a scripted history: which delivery (webhook, nth), when, and what came of it. */
interface Step {
  webhook: 0 | 1;
  nth: number;
  seconds: number;
  outcome: AttemptRecord['outcome'];
  latencyMs: number;
  /** Recorded under a lease it no longer holds. */
  stale?: boolean;
}

/** Fails, succeeds, a test attempt, a lost lease, a dead letter followed by more outcomes of its webhook. */
const SCRIPT: Step[] = [
  { webhook: 0, nth: 0, seconds: 10, outcome: 'retry', latencyMs: 40 },
  { webhook: 1, nth: 0, seconds: 20, outcome: 'delivered', latencyMs: 120 },
  { webhook: 0, nth: 1, seconds: 65, outcome: 'delivered', latencyMs: 301 },
  { webhook: 0, nth: 2, seconds: 70, outcome: 'retry', latencyMs: 2_999 },
  { webhook: 1, nth: -1, seconds: 80, outcome: 'test', latencyMs: 15 },
  { webhook: 1, nth: 1, seconds: 85, outcome: 'delivered', latencyMs: 60, stale: true },
  { webhook: 0, nth: 3, seconds: 3_605, outcome: 'dead_letter', latencyMs: 15_000 },
  { webhook: 0, nth: 4, seconds: 3_606, outcome: 'delivered', latencyMs: 7 },
  { webhook: 0, nth: 5, seconds: 3_607, outcome: 'retry', latencyMs: 1_001 },
  { webhook: 1, nth: 2, seconds: 3_608, outcome: 'retry', latencyMs: 101 },
];

/** Registers the tests; `fixture` is read when each test runs. */
export function describeRecordManyTests(fixture: () => RecordManyFixture): void {
  const kit = recordManyKit(fixture);
  batchTests(kit);

  concurrentBatchTests(kit);
}

type RecordManyKit = ReturnType<typeof recordManyKit>;

/** What the record-many tests share: an organization with claimed deliveries, a record per scripted step, and what the records came to. */
function recordManyKit(fixture: () => RecordManyFixture) {
  /** An organization with two active webhooks, six events owed to each and claimed, one more queued. */
  async function setUp() {
    const { store, id } = fixture();
    const orgId = id('org');
    await store.organizations.create({
      id: orgId,
      slug: `rm-${orgId.slice(-8)}`,
      name: 'R',
      created_at: at(0),
    });
    const webhooks: AuditWebhook[] = [];
    for (const n of [0, 1]) {
      const webhook: AuditWebhook = {
        id: id('awh'),
        organization_id: orgId,
        name: `hook ${n}`,
        url: `https://hooks.example/${n}`,
        status: 'active',
        event_types: [],
        secret_sealed: `lk1.k1.sealed-${n}`,
        consecutive_failures: 0,
        last_delivery: null,
        last_error: null,
        created_at: at(0),
        created_by: 'admin',
      };
      await store.auditWebhooks.create(webhook);
      webhooks.push(webhook);
    }
    const append = () =>
      store.activity.append(orgId, {
        id: id('evt'),
        type: 'push_applied',
        occurred_at: at(1),
        organization: 'r',
        actor: { type: 'user', id: 'admin' },
        data: {},
      });
    for (let i = 0; i < 6; i++) await append();
    const claimed = (await store.deliveries.claim({ now: at(2), limit: 1_000, leaseUntil: LEASE })).filter(
      (c) => c.delivery.organization_id === orgId,
    );
    const owed = (w: number) =>
      claimed
        .filter((c) => c.webhook.id === webhooks[w]!.id)
        .sort((a, b) => a.delivery.event_seq - b.delivery.event_seq);
    await append();
    // A total taken before the attempts' minutes: recording must still add them to it.
    await store.deliveries.totalsBefore(orgId, [at(7_200)]);
    return { store, id, orgId, webhooks, owed: [owed(0), owed(1)] as const };
  }

  type Org = Awaited<ReturnType<typeof setUp>>;

  const recordOf = (org: Org, step: Step): LeasedAttemptRecord => {
    const webhook = org.webhooks[step.webhook]!;
    const claimed: ClaimedDelivery | undefined = step.nth < 0 ? undefined : org.owed[step.webhook][step.nth];
    const failed = step.outcome !== 'delivered' && step.seconds % 2 === 0;
    const attempt: DeliveryAttempt = {
      id: org.id('att'),
      organization_id: org.orgId,
      webhook_id: webhook.id,
      delivery_id: claimed?.delivery.id ?? null,
      event_id: claimed?.delivery.event_id ?? org.id('evt'),
      event_type: 'push_applied',
      attempt: 1,
      at: at(step.seconds),
      succeeded: !failed,
      status_code: failed ? 500 : 200,
      latency_ms: step.latencyMs,
      error: failed
        ? { at: at(step.seconds), code: 'http_status', status_code: 500, message: `500 at ${step.seconds}` }
        : null,
      next_attempt_at: step.outcome === 'retry' ? at(step.seconds + 30) : null,
    };
    const lease = claimed ? (step.stale ? at(599) : LEASE) : null;
    return { attempt, outcome: step.outcome, lease };
  };

  /** What an organization's records came to, with its own ids replaced by positions. */
  async function outcome(org: Org) {
    const { store, orgId, webhooks } = org;
    const health = [];
    const log = [];
    for (const webhook of webhooks) {
      const { status, consecutive_failures, last_delivery, last_error } = (await store.auditWebhooks.get(
        orgId,
        webhook.id,
      ))!;
      health.push({
        status,
        consecutive_failures,
        last_delivery: { ...last_delivery, event_id: '' },
        last_error,
      });
      const states = [];
      for (const state of ['pending', 'held'] as const)
        states.push(await store.deliveries.count(orgId, webhook.id, state));
      const attempts = (await store.deliveries.attempts(orgId, webhook.id, { limit: 100 })).attempts;
      log.push({
        states,
        attempts: attempts.map(
          ({ id: _, delivery_id: __, event_id: ___, webhook_id: ____, organization_id: _____, ...rest }) =>
            rest,
        ),
      });
    }
    const byPosition = (figures: Map<string, Rollup>) => webhooks.map((w) => figures.get(w.id) ?? null);
    const minutes = byPosition(await store.deliveries.minuteRollups(orgId, [{ from: at(0), to: at(7_200) }]));
    const totals = await store.deliveries.totalsBefore(orgId, [at(7_200), at(3_600), at(120)]);
    return { health, log, minutes, totals: [...totals.values()].map(byPosition) };
  }
  return { fixture, setUp, recordOf, outcome };
}

/** A batch leaves what recording each in turn leaves. */
function batchTests(kit: RecordManyKit): void {
  const { setUp, recordOf, outcome } = kit;
  it('record many: a batch leaves exactly what recording each in turn leaves, the dead letter at its own attempt', async () => {
    const batched = await setUp();
    const single = await setUp();
    const results = await batched.store.deliveries.recordMany(SCRIPT.map((step) => recordOf(batched, step)));
    expect(results).toEqual(SCRIPT.map((step) => !step.stale));
    for (const step of SCRIPT) {
      const { lease, ...record } = recordOf(single, step);
      expect(await single.store.deliveries.record(record, lease)).toBe(!step.stale);
    }
    const got = await outcome(batched);
    expect(got).toEqual(await outcome(single));
    // The history as scripted: the first webhook dead-lettered and holding what it owes.
    expect(got.health[0]).toMatchObject({ status: 'dead_letter', consecutive_failures: 1 });
    expect(got.health[1]).toMatchObject({ status: 'active', consecutive_failures: 1 });
    expect(got.log[0]!.states).toEqual([0, 5]);
    expect(got.log[1]!.states).toEqual([6, 0]);
    expect(got.log[0]!.attempts).toHaveLength(6);
    expect(got.minutes[0]!.attempted).toBe(6);
    expect(got.totals[0]![0]!.attempted).toBe(6);
    expect(got.totals[1]![0]!.attempted).toBe(3);
    expect(got.totals[0]![1]!.attempted).toBe(3);
  });

  it('record many: a batch whose every lease is held leaves exactly what recording each in turn leaves', async () => {
    // No record to skip (the other test has a lost lease): the whole batch is written at once.
    const script = SCRIPT.filter((step) => !step.stale);
    const batched = await setUp();
    const single = await setUp();
    const results = await batched.store.deliveries.recordMany(script.map((step) => recordOf(batched, step)));
    expect(results).toEqual(script.map(() => true));
    for (const step of script) {
      const { lease, ...record } = recordOf(single, step);
      expect(await single.store.deliveries.record(record, lease)).toBe(true);
    }
    const got = await outcome(batched);
    expect(got).toEqual(await outcome(single));
    expect(got.health[0]).toMatchObject({ status: 'dead_letter', consecutive_failures: 1 });
    expect(got.health[1]).toMatchObject({ status: 'active', consecutive_failures: 1 });
  });
}

/** Batches over the same webhooks in opposite orders, at once. */
function concurrentBatchTests(kit: RecordManyKit): void {
  const { setUp, recordOf } = kit;
  it('record many: batches over the same webhooks in opposite orders, at once, neither deadlock nor lose a count', async () => {
    const org = await setUp();
    const tests = (w: 0 | 1, n: number): LeasedAttemptRecord[] =>
      Array.from({ length: n }, (_, i) =>
        recordOf(org, { webhook: w, nth: -1, seconds: 30 + i, outcome: 'test', latencyMs: 50 + i }),
      );
    const rounds = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        org.store.deliveries.recordMany(
          i % 2 === 0 ? [...tests(0, 3), ...tests(1, 3)] : [...tests(1, 3), ...tests(0, 3)],
        ),
      ),
    );
    expect(rounds.flat().every(Boolean)).toBe(true);
    const minutes = await org.store.deliveries.minuteRollups(org.orgId, [{ from: at(0), to: at(120) }]);
    for (const webhook of org.webhooks) expect(minutes.get(webhook.id)!.attempted).toBe(18);
    const totals = (await org.store.deliveries.totalsBefore(org.orgId, [at(7_200)])).get(at(7_200))!;
    for (const webhook of org.webhooks) expect(totals.get(webhook.id)!.attempted).toBe(18);
  });
}
