/**
 * The fair claim part of the store conformance suite: organizations and webhooks take turns, a
 * claim gives one webhook no more than its cap or room, and the per-webhook limits (attempts in
 * flight from live leases, attempts per second from the claims made) hold, also for concurrent
 * claims. These tests run on their own clock, years after the others', and first lease whatever
 * the earlier tests left due, so each test's claims see only its own deliveries.
 */
import type { ClaimedDelivery, ClaimOptions, LatchkeyStore } from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';

export interface ClaimFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

const T1 = '2030-03-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T1) + seconds * 1000).toISOString();
/** Long past every claim of these tests: what {@link drain} leases the leftovers until. */
const DRAINED_UNTIL = '2031-01-01T00:00:00.000Z';

/** Registers the claim tests; `fixture` is read when each test runs. */
export function describeClaimStoreTests(fixture: () => ClaimFixture): void {
  const kit = claimKit(fixture);
  backlogAndTurnTests(kit);

  limitTests(kit);
}

type ClaimKit = ReturnType<typeof claimKit>;

/** What the claim tests share: organizations with queued deliveries, and claiming them. */
function claimKit(fixture: () => ClaimFixture) {
  /**
   * Leases every delivery due by `now` until long after these tests, so none left by an earlier
   * test competes with the deliveries of the test calling it.
   */
  async function drain(now: string) {
    const { store } = fixture();
    while ((await store.deliveries.claim({ now, limit: 10_000, leaseUntil: DRAINED_UNTIL })).length > 0);
  }

  /** An organization with `webhooks` active webhooks and `events` events, due from second `due` on. */
  async function organization(webhooks: number, events: number, due: number) {
    const { store, id } = fixture();
    const orgId = id('org');
    await store.organizations.create({ id: orgId, slug: `fc-${orgId.slice(-8)}`, name: 'F', created_at: T1 });
    const hooks: string[] = [];
    for (let i = 0; i < webhooks; i++) {
      const hook = id('awh');
      await store.auditWebhooks.create({
        id: hook,
        organization_id: orgId,
        name: `fair ${i}`,
        url: `https://hooks.example/fair/${i}`,
        status: 'active',
        event_types: [],
        secret_sealed: `lk1.k1.sealed-${i}`,
        consecutive_failures: 0,
        last_delivery: null,
        last_error: null,
        created_at: T1,
        created_by: 'admin',
      });
      hooks.push(hook);
    }
    // Each event is queued for every webhook of the organization.
    for (let n = 0; n < events; n++) {
      await store.activity.append(orgId, {
        id: id('evt'),
        type: 'push_applied',
        occurred_at: at(due + n * 0.001),
        organization: 'f',
        actor: { type: 'user', id: 'admin' },
        data: {},
      });
    }
    return { store, id, orgId, hooks };
  }

  const claim = (store: LatchkeyStore, options: Partial<ClaimOptions> & { now: string }) =>
    store.deliveries.claim({ limit: 1_000, leaseUntil: at(3_000), ...options });
  const ofHook = (claimed: ClaimedDelivery[], hook: string) => claimed.filter((c) => c.webhook.id === hook);
  return { fixture, drain, organization, claim, ofHook };
}

/** The backlog, the turns organizations and webhooks take, and the in-flight limit. */
function backlogAndTurnTests(kit: ClaimKit): void {
  const { drain, organization, claim, ofHook } = kit;
  it('backlog: pending deliveries per organization, and the earliest due among those due', async () => {
    await drain(at(899));
    const a = await organization(2, 3, 900);
    const mine = async (now: string) =>
      (await a.store.deliveries.backlog(now)).find((b) => b.organizationId === a.orgId);
    expect(await mine(at(899))).toEqual({ organizationId: a.orgId, pending: 6, oldestDueAt: null });
    expect(await mine(at(905))).toEqual({ organizationId: a.orgId, pending: 6, oldestDueAt: at(900) });
    // A claimed delivery is still in the queue until its outcome is recorded.
    expect(ofHook(await claim(a.store, { now: at(905) }), a.hooks[0]!)).toHaveLength(3);
    expect((await mine(at(905)))?.pending).toBe(6);
    // An organization without pending deliveries is not listed.
    const empty = await organization(1, 0, 900);
    expect((await a.store.deliveries.backlog(at(905))).some((b) => b.organizationId === empty.orgId)).toBe(
      false,
    );
  });

  it('claims: organizations take turns; one webhook gets at most perWebhook, or its room', async () => {
    await drain(at(0));
    const a = await organization(1, 6, 1);
    const b = await organization(1, 1, 5);
    const claimed = await claim(a.store, { now: at(10), perWebhook: 2 });
    expect(ofHook(claimed, a.hooks[0]!)).toHaveLength(2);
    expect(ofHook(claimed, b.hooks[0]!)).toHaveLength(1);
    // Turn order: a's first, b's first (newer than a's second), then a's second.
    const order = claimed
      .filter((c) => c.delivery.organization_id === a.orgId || c.delivery.organization_id === b.orgId)
      .map((c) => c.webhook.id);
    expect(order).toEqual([a.hooks[0], b.hooks[0], a.hooks[0]]);
    const more = await claim(a.store, { now: at(10), perWebhook: 3, room: { [a.hooks[0]!]: 1 } });
    expect(ofHook(more, a.hooks[0]!)).toHaveLength(1);
  });

  it('claims: a backlog does not push another organization out of a small claim; webhooks of one organization take turns', async () => {
    await drain(at(99));
    const a = await organization(2, 10, 100);
    const b = await organization(1, 3, 105);
    const claimed = await claim(a.store, { now: at(110), limit: 4 });
    const hooks = claimed.map((c) => c.webhook.id);
    // A's first turn, B's first, A's second (its other webhook), B's second.
    expect(hooks).toHaveLength(4);
    expect(new Set(hooks)).toEqual(new Set([a.hooks[0], a.hooks[1], b.hooks[0]]));
    expect(hooks.filter((h) => h === b.hooks[0])).toHaveLength(2);
  });

  it('claims: the in-flight limit counts every live lease; an override replaces it for one webhook', async () => {
    await drain(at(199));
    const { store, id, hooks } = await organization(2, 5, 200);
    const [limited, raised] = hooks as [string, string];
    const limits = { inFlight: 2, byWebhook: { [raised]: { inFlight: 3 } } };
    const first = await claim(store, { now: at(210), leaseUntil: at(240), limits });
    expect(ofHook(first, limited)).toHaveLength(2);
    expect(ofHook(first, raised)).toHaveLength(3);
    expect(ofHook(await claim(store, { now: at(211), leaseUntil: at(240), limits }), limited)).toHaveLength(
      0,
    );
    // One recorded (lease released): one more may go.
    const done = ofHook(first, limited)[0]!;
    const recorded = await store.deliveries.record(
      {
        attempt: {
          id: id('att'),
          organization_id: done.delivery.organization_id,
          webhook_id: limited,
          delivery_id: done.delivery.id,
          event_id: done.delivery.event_id,
          event_type: 'push_applied',
          attempt: 1,
          at: at(212),
          error: null,
          next_attempt_at: null,
          succeeded: true,
          status_code: 200,
          latency_ms: 5,
        },
        outcome: 'delivered',
      },
      at(240),
    );
    expect(recorded).toBe(true);
    expect(ofHook(await claim(store, { now: at(213), leaseUntil: at(250), limits }), limited)).toHaveLength(
      1,
    );
    // Leases that ended are not in flight any more (a crashed worker's claims).
    expect(ofHook(await claim(store, { now: at(245), leaseUntil: at(250), limits }), limited)).toHaveLength(
      1,
    );
    expect(ofHook(await claim(store, { now: at(251), leaseUntil: at(260), limits }), limited)).toHaveLength(
      2,
    );
  });
}

/** The per-second limit, concurrent claims, and claims given back or recorded. */
function limitTests(kit: ClaimKit): void {
  const { drain, organization, claim, ofHook } = kit;
  it('claims: the per-second limit counts the claims made in the current second', async () => {
    await drain(at(299));
    const { store, hooks } = await organization(2, 6, 300);
    const [limited, free] = hooks as [string, string];
    const limits = { perSecond: 2, byWebhook: { [free]: { perSecond: null } } };
    const short = (s: number) => ({ now: at(s), leaseUntil: at(s + 0.1), limits });
    const first = await claim(store, short(310.1));
    expect(ofHook(first, limited)).toHaveLength(2);
    expect(ofHook(first, free)).toHaveLength(6);
    // Their leases ended, but the second's two are spent.
    expect(ofHook(await claim(store, short(310.5)), limited)).toHaveLength(0);
    expect(ofHook(await claim(store, short(311.0)), limited)).toHaveLength(2);
    expect(ofHook(await claim(store, short(311.9)), limited)).toHaveLength(0);
  });

  it('claims: concurrent claims together respect the in-flight limit', async () => {
    await drain(at(399));
    const { store, hooks } = await organization(1, 12, 400);
    const limits = { inFlight: 3 };
    const claims = await Promise.all(
      Array.from({ length: 6 }, () => claim(store, { now: at(410), leaseUntil: at(440), limit: 5, limits })),
    );
    const ids = claims.flatMap((c) => ofHook(c, hooks[0]!)).map((c) => c.delivery.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids).toHaveLength(3);
  });

  it('claims: the in-flight room comes back as claims are given back, or recorded several at once', async () => {
    await drain(at(599));
    const { store, id, hooks } = await organization(1, 8, 600);
    const hook = hooks[0]!;
    const limits = { inFlight: 4 };
    const first = ofHook(await claim(store, { now: at(610), leaseUntil: at(640), limits }), hook);
    expect(first).toHaveLength(4);
    expect(ofHook(await claim(store, { now: at(611), leaseUntil: at(641), limits }), hook)).toHaveLength(0);
    // Two given back: those two, the oldest due, go again.
    const lease = (c: ClaimedDelivery) => ({ id: c.delivery.id, lease: c.delivery.lease_until });
    expect(await store.deliveries.release(first.slice(0, 2).map(lease))).toBe(2);
    const second = ofHook(await claim(store, { now: at(612), leaseUntil: at(642), limits }), hook);
    expect(second.map((c) => c.delivery.id)).toEqual(first.slice(0, 2).map((c) => c.delivery.id));
    // Three of two claims recorded in one batch, one a retry due later: three more may go.
    const outcome = (c: ClaimedDelivery, retry: boolean) => ({
      attempt: {
        id: id('att'),
        organization_id: c.delivery.organization_id,
        webhook_id: hook,
        delivery_id: c.delivery.id,
        event_id: c.delivery.event_id,
        event_type: 'push_applied',
        attempt: 1,
        at: at(613),
        error: null,
        next_attempt_at: retry ? at(900) : null,
        succeeded: !retry,
        status_code: retry ? 500 : 200,
        latency_ms: 5,
      },
      outcome: retry ? ('retry' as const) : ('delivered' as const),
      lease: c.delivery.lease_until,
    });
    const batch = [outcome(first[2]!, true), outcome(second[0]!, false), outcome(second[1]!, false)];
    expect(await store.deliveries.recordMany(batch)).toEqual([true, true, true]);
    const third = ofHook(await claim(store, { now: at(614), leaseUntil: at(644), limits }), hook);
    expect(third).toHaveLength(3);
    expect(third.map((c) => c.delivery.id)).not.toContain(first[2]!.delivery.id);
  });

  it('claims: claims given back are claimable at once; one leased anew meanwhile is left alone', async () => {
    await drain(at(499));
    const { store, hooks } = await organization(1, 3, 500);
    const claimed = ofHook(await claim(store, { now: at(510), leaseUntil: at(540) }), hooks[0]!);
    expect(claimed).toHaveLength(3);
    const [a, b, c] = claimed as [
      (typeof claimed)[number],
      (typeof claimed)[number],
      (typeof claimed)[number],
    ];
    // b's lease ended and another worker took it: giving back the old claim must not free it.
    const retaken = ofHook(await claim(store, { now: at(541), leaseUntil: at(570) }), hooks[0]!);
    expect(retaken.map((r) => r.delivery.id).sort()).toEqual([a, b, c].map((r) => r.delivery.id).sort());
    const given = await store.deliveries.release([
      { id: a.delivery.id, lease: at(570) },
      { id: b.delivery.id, lease: at(540) },
    ]);
    expect(given).toBe(1);
    const again = ofHook(await claim(store, { now: at(542), leaseUntil: at(580) }), hooks[0]!);
    expect(again.map((r) => r.delivery.id)).toEqual([a.delivery.id]);
  });
}
