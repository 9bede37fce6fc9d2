/**
 * The world the metrics store tests run in: an organization with webhooks `a`, `b` and `quiet`,
 * attempts recorded one by one or in batches as the delivery engine records them, and the
 * brute-force sums the stores' figures are checked against.
 */
import {
  type AuditWebhook,
  addAttempt,
  type DeliveryAttempt,
  emptyRollup,
  type LatchkeyStore,
  type Rollup,
} from '@latchkey/core/store';
import { expect } from 'vitest';

export interface MetricsFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

export const T0 = Date.parse('2026-11-22T10:00:00.000Z');
export const HOUR = 3_600_000;
export const iso = (ms: number) => new Date(ms).toISOString();
const LATENCIES = [5, 100, 101, 250, 301, 999, 1_001, 2_999, 3_001, 15_000, 42, 42];

/** A fresh organization with three webhooks, and the ways the tests record and sum attempts. */
export async function metricsWorld(fixture: () => MetricsFixture) {
  const { store, id } = fixture();
  const orgId = id('org');
  await store.organizations.create({
    id: orgId,
    slug: `mx-${orgId.slice(-8)}`,
    name: 'M',
    created_at: iso(T0),
  });
  const webhooks: string[] = [];
  for (const name of ['a', 'b', 'quiet']) {
    const webhook: AuditWebhook = {
      id: id('awh'),
      organization_id: orgId,
      name,
      url: `https://hooks.example/${name}`,
      status: 'active',
      event_types: [],
      secret_sealed: 'lk1.k1.a.b',
      consecutive_failures: 0,
      last_delivery: null,
      last_error: null,
      created_at: iso(T0 - HOUR),
      created_by: 'admin',
    };
    await store.auditWebhooks.create(webhook);
    webhooks.push(webhook.id);
  }
  const recorded: { webhookId: string; at: number; ok: boolean; ms: number }[] = [];
  /** A test attempt (no delivery) of `webhookId` at `at`. */
  const testAttempt = (webhookId: string, at: number, ok: boolean, ms: number): DeliveryAttempt => ({
    id: id('att'),
    organization_id: orgId,
    webhook_id: webhookId,
    delivery_id: null,
    event_id: id('evt'),
    event_type: 'webhook_test',
    attempt: 1,
    at: iso(at),
    succeeded: ok,
    status_code: ok ? 200 : 500,
    latency_ms: ms,
    error: ok ? null : { at: iso(at), code: 'http_status', status_code: 500, message: 'answered 500' },
    next_attempt_at: null,
  });
  /** Records a test attempt of `webhookId` at `at`, on its own. */
  const attempt = async (webhookId: string, at: number, ok: boolean, ms: number) => {
    const row = testAttempt(webhookId, at, ok, ms);
    expect(await store.deliveries.record({ attempt: row, outcome: 'test' }, null)).toBe(true);
    recorded.push({ webhookId, at, ok, ms });
  };
  /** The brute-force sum of the recorded attempts of `webhookId` with `from <= at < to`. */
  const sum = (webhookId: string, from: number, to: number): Rollup => {
    const rollup = emptyRollup();
    for (const r of recorded) {
      if (r.webhookId === webhookId && r.at >= from && r.at < to)
        addAttempt(rollup, { ok: r.ok, latencyMs: r.ms });
    }
    return rollup;
  };
  /**
   * Attempts spread over hours 0..3 after T0 for webhooks a and b, recorded in batches of seven
   * (`recordMany`, as the delivery engine records them): several of a webhook and hour in one
   * batch, and batches that span hours.
   */
  const spread = async () => {
    const all = Array.from({ length: 48 }, (_, i) => ({
      webhookId: webhooks[i % 2]!,
      at: T0 + (i % 4) * HOUR + i * 61_000,
      ok: i % 5 !== 0,
      ms: LATENCIES[i % LATENCIES.length]!,
    }));
    for (let from = 0; from < all.length; from += 7) {
      const batch = all.slice(from, from + 7);
      const rows = batch.map((r) => testAttempt(r.webhookId, r.at, r.ok, r.ms));
      const kept = await store.deliveries.recordMany(
        rows.map((row) => ({ attempt: row, outcome: 'test' as const, lease: null })),
      );
      expect(kept).toEqual(batch.map(() => true));
      recorded.push(...batch);
    }
  };
  return { store, orgId, webhooks, attempt, sum, spread };
}

/** Adds `from` into `into` (both rollups of attempts), in place. */
export function addAttempts(into: Rollup, from: Rollup): void {
  into.attempted += from.attempted;
  into.succeeded += from.succeeded;
  into.failed += from.failed;
  for (const key of Object.keys(into.buckets) as (keyof Rollup['buckets'])[])
    into.buckets[key] += from.buckets[key];
  for (const [key, count] of Object.entries(from.histogram))
    into.histogram[key] = (into.histogram[key] ?? 0) + count;
}
