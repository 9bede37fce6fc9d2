/**
 * The metrics part of the store conformance suite: minute rollups and running totals that add up
 * every recorded attempt, exactly, against a brute-force sum; totals taken before an attempt of an
 * earlier hour is recorded still count it; pruning leaves the later totals right; and the metrics
 * report of a generated history equals a brute-force count of its attempts.
 */
import {
  type DeliveryFigures,
  emptyRollup,
  type LatchkeyStore,
  latencyBucketKey,
  METRICS_WINDOWS,
  type MetricsWindow,
  metricsReport,
  metricsTimeline,
  TIMELINE_STEP_MS,
  windowStart,
} from '@latchkey/core/store';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';
import { addAttempts, HOUR, iso, type MetricsFixture, metricsWorld, T0 } from './metrics-world.js';

export type { MetricsFixture } from './metrics-world.js';

/** Registers the tests; `fixture` is read when each test runs. */
export function describeMetricsStoreTests(fixture: () => MetricsFixture): void {
  const kit = metricsKit(fixture);
  rollupTests(kit);

  generatedHistoryTests(kit);

  totalsTests(kit);
}

type MetricsKit = ReturnType<typeof metricsKit>;

/** What the metrics tests share: a world of recorded attempts, and the totals at an hour. */
function metricsKit(fixture: () => MetricsFixture) {
  const setUp = () => metricsWorld(fixture);

  const totalsAt = async (store: LatchkeyStore, orgId: string, hour: number) =>
    (await store.deliveries.totalsBefore(orgId, [iso(hour)])).get(iso(hour))!;
  return { fixture, setUp, totalsAt };
}

/** Minute rollups and running totals, including attempts recorded late. */
function rollupTests(kit: MetricsKit): void {
  const { setUp, totalsAt } = kit;
  it('metrics: minute rollups and running totals add up every attempt, exactly', async () => {
    const { store, orgId, webhooks, sum, spread } = await setUp();
    await spread();
    const minutes = await store.deliveries.minuteRollups(orgId, [
      { from: iso(T0 - HOUR), to: iso(T0 + 5 * HOUR) },
    ]);
    const edge = await store.deliveries.minuteRollups(orgId, [
      { from: iso(T0 + HOUR + 30 * 60_000), to: iso(T0 + 2 * HOUR) },
      { from: iso(T0 + 3 * HOUR), to: iso(T0 + 3 * HOUR + 20 * 60_000) },
    ]);
    // Minute boundaries, not only hours, asked out of order: each total is taken from whichever
    // earlier one exists, plus the minutes and hours between.
    const hours = [
      T0 + 2 * HOUR + 17 * 60_000,
      T0 - HOUR,
      T0 + HOUR + 59 * 60_000,
      T0,
      T0 + HOUR,
      T0 + 2 * HOUR,
      T0 + 4 * HOUR,
      T0 + 3 * 60_000,
    ];
    const totals = await store.deliveries.totalsBefore(orgId, hours.map(iso));
    for (const webhookId of webhooks) {
      expect(minutes.get(webhookId) ?? emptyRollup()).toEqual(sum(webhookId, T0 - HOUR, T0 + 5 * HOUR));
      const edges = sum(webhookId, T0 + HOUR + 30 * 60_000, T0 + 2 * HOUR);
      const late = sum(webhookId, T0 + 3 * HOUR, T0 + 3 * HOUR + 20 * 60_000);
      addAttempts(edges, late);
      expect(edge.get(webhookId) ?? emptyRollup()).toEqual(edges);
      for (const hour of hours) {
        expect(totals.get(iso(hour))!.get(webhookId) ?? emptyRollup(), iso(hour)).toEqual(
          sum(webhookId, 0, hour),
        );
      }
    }
    // Read again: the same totals, now taken.
    expect(await store.deliveries.totalsBefore(orgId, hours.map(iso))).toEqual(totals);
    expect((await store.deliveries.minuteRollups(orgId, [])).size).toBe(0);
  });

  it('metrics: a total already taken still counts an attempt recorded later for an earlier hour', async () => {
    const { store, orgId, webhooks, attempt, sum, spread } = await setUp();
    await spread();
    const webhookId = webhooks[0]!;
    await totalsAt(store, orgId, T0 + 2 * HOUR);
    await totalsAt(store, orgId, T0 + 4 * HOUR);
    // Started in hour 1, recorded now (a slow receiver, a worker that paused).
    await attempt(webhookId, T0 + HOUR + 59 * 60_000, false, 14_999);
    for (const hour of [T0 + HOUR, T0 + 2 * HOUR, T0 + 3 * HOUR, T0 + 4 * HOUR]) {
      expect((await totalsAt(store, orgId, hour)).get(webhookId), iso(hour)).toEqual(sum(webhookId, 0, hour));
    }
  });
}

/** A generated history against a brute-force count. */
function generatedHistoryTests(kit: MetricsKit): void {
  const { setUp } = kit;
  it('metrics: the report and the timeline of a generated history equal a brute-force count of the attempts, every window, webhook and interval', async () => {
    const { store, orgId, webhooks, attempt } = await setUp();
    const now = Date.parse('2026-12-24T15:37:42.123Z');
    const raw: { webhookId: string; at: number; ok: boolean; ms: number }[] = [];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let i = 0; i < 240; i++) {
      const webhookId = webhooks[Math.floor(random() * 2)]!;
      // Over 32 days, a third of them close to the window edges, where the minute rule matters.
      const edge = [24 * HOUR, 7 * 24 * HOUR, 30 * 24 * HOUR][i % 3]!;
      const age = i % 3 === 0 ? edge + (random() - 0.5) * 6 * 60_000 : random() * 32 * 24 * HOUR;
      const at = Math.floor(now - age);
      const ms = random() < 0.8 ? Math.floor(random() * 400) : Math.floor(random() * 20_000);
      const ok = random() < 0.9;
      await attempt(webhookId, at, ok, ms);
      raw.push({ webhookId, at, ok, ms });
    }
    // Read at three times: totals are taken at new boundaries, and kept ones are read again.
    for (const readAt of [
      now,
      now + 37 * 60_000,
      now + 2 * HOUR + 13 * 60_000,
      now + 2 * HOUR + 14 * 60_000,
    ]) {
      for (const window of Object.keys(METRICS_WINDOWS) as MetricsWindow[]) {
        const report = await metricsReport(store, orgId, window, readAt);
        const start = windowStart(readAt, window);
        const expectFigures = (
          got: Pick<DeliveryFigures, 'attempted' | 'succeeded' | 'failed' | 'latency'>,
          rows: typeof raw,
          what: string,
        ) => {
          const inside = rows.filter((r) => r.at >= start);
          expect(got.attempted, what).toBe(inside.length);
          expect(got.succeeded, what).toBe(inside.filter((r) => r.ok).length);
          expect(got.failed, what).toBe(inside.filter((r) => !r.ok).length);
          const sorted = inside.map((r) => r.ms).sort((a, b) => a - b);
          const rank = (p: number) =>
            sorted.length === 0 ? 0 : sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
          for (const [p, value] of [
            [50, got.latency.p50_ms],
            [95, got.latency.p95_ms],
            [99, got.latency.p99_ms],
          ] as const) {
            expect(Math.abs(value - rank(p)), `${what} p${p}`).toBeLessThanOrEqual(
              Math.max(rank(p) * 0.01, 0.5),
            );
          }
        };
        expectFigures(report.summary, raw, `${window} summary`);
        // The timeline: intervals on UTC step boundaries from the window's start to the end of the
        // current minute, each equal to a count of the attempts inside it, adding up to the summary.
        const timeline = await metricsTimeline(store, orgId, window, readAt);
        const step = TIMELINE_STEP_MS[window];
        expect(timeline.step_seconds).toBe(step / 1000);
        expect(timeline.buckets[0]!.from).toBe(iso(start));
        expect(timeline.buckets.at(-1)!.to).toBe(iso(Math.floor(readAt / 60_000) * 60_000 + 60_000));
        timeline.buckets.forEach((bucket, i) => {
          const from = Date.parse(bucket.from);
          const to = Date.parse(bucket.to);
          if (i > 0) expect(bucket.from).toBe(timeline.buckets[i - 1]!.to);
          if (i > 0) expect(from % step).toBe(0);
          if (i < timeline.buckets.length - 1) expect(to % step).toBe(0);
          expect(to - from).toBeLessThanOrEqual(step);
          const rows = raw.filter((r) => r.at >= from && r.at < to);
          expectFigures(bucket, rows, `${window} timeline ${bucket.from}`);
        });
        const added = timeline.buckets.reduce((n, b) => n + b.attempted, 0);
        expect(added, `${window} timeline total`).toBe(report.summary.attempted);
        expect(timeline.buckets.reduce((n, b) => n + b.failed, 0)).toBe(report.summary.failed);
        for (const entry of report.webhooks) {
          const rows = raw.filter((r) => r.webhookId === entry.id);
          expectFigures(entry, rows, `${window} ${entry.name}`);
          const buckets = emptyRollup().buckets;
          for (const r of rows) if (r.at >= start) buckets[latencyBucketKey(r.ms)]++;
          expect(entry.latency_buckets, `${window} ${entry.name} buckets`).toEqual(buckets);
        }
      }
    }
  });
}

/** Totals replacing each other within an hour, and pruning. */
function totalsTests(kit: MetricsKit): void {
  const { setUp, totalsAt } = kit;
  it('metrics: totals taken minute after minute replace each other within an hour, and still add up', async () => {
    const { store, orgId, webhooks, sum, spread } = await setUp();
    await spread();
    const boundaries = [5, 10, 20, 70, 75, 130].map((minutes) => T0 + minutes * 60_000);
    for (const boundary of boundaries) await totalsAt(store, orgId, boundary);
    for (const webhookId of webhooks) {
      for (const boundary of [...boundaries, T0 + 15 * 60_000, T0 + 72 * 60_000, T0 + 4 * HOUR]) {
        expect(
          (await totalsAt(store, orgId, boundary)).get(webhookId) ?? emptyRollup(),
          iso(boundary),
        ).toEqual(sum(webhookId, 0, boundary));
      }
    }
  });

  it('metrics: pruning deletes old rollups and totals, and the totals taken later still add up', async () => {
    const { store, orgId, webhooks, sum, spread } = await setUp();
    await spread();
    const before = await totalsAt(store, orgId, T0 + 3 * HOUR);
    expect(await store.deliveries.pruneRollups(iso(T0 + 2 * HOUR))).toBeGreaterThan(0);
    expect(await totalsAt(store, orgId, T0 + 3 * HOUR)).toEqual(before);
    const old = await store.deliveries.minuteRollups(orgId, [{ from: iso(T0), to: iso(T0 + 2 * HOUR) }]);
    expect(old.size).toBe(0);
    for (const webhookId of webhooks) {
      // The total at the cutoff was taken before its rollups went.
      expect((await totalsAt(store, orgId, T0 + 2 * HOUR)).get(webhookId) ?? emptyRollup()).toEqual(
        sum(webhookId, 0, T0 + 2 * HOUR),
      );
      // Taken after the pruning, from the total kept at the cutoff: the attempts of every hour count.
      expect((await totalsAt(store, orgId, T0 + 5 * HOUR)).get(webhookId) ?? emptyRollup()).toEqual(
        sum(webhookId, 0, T0 + 5 * HOUR),
      );
    }
  });
}
