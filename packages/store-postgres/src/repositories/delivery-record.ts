/**
 * Recording delivery attempts on SQL, many in one transaction and two statements whatever their
 * number (see `DeliveryRepository.recordMany`). The first locks the records' webhooks in id order
 * (so attempts of one webhook are recorded one batch after another, no running total is being taken
 * meanwhile, and two workers lock in the same order), then their deliveries still leased as claimed.
 * The webhooks' health is folded in order in the process, and the second statement writes it all,
 * one data-modifying CTE each: the attempt rows, the rollups and running totals
 * (`delivery-record-figures.ts`), the webhooks' health and the deliveries' states. It runs after
 * the locks are taken, so its snapshot sees every flush before it. `record` is a batch of one.
 */
import {
  type DeliveryAttempt,
  type LeasedAttemptRecord,
  lastDeliveryOf,
  sumShares,
} from '@latchkey/core/store';
import { onGenericPlans, type SqlQueryable, sendDeferred } from '../driver.js';
import type { Tables } from '../schema-name.js';
import { leasesEndedCte } from './delivery-claim.js';
import { attemptsCte, rollupsCte, SqlParams, totalsCte } from './delivery-record-figures.js';

const errorJson = (attempt: DeliveryAttempt) =>
  attempt.error === null ? null : JSON.stringify(attempt.error);

/** A webhook's health as its recorded outcomes in order leave it. */
interface Health {
  failures: number;
  lastDelivery: string;
  lastError: string | null;
  dead: boolean;
}

interface Locked {
  webhooks: Map<string, { organization_id: string; consecutive_failures: number }>;
  leased: Set<string>;
}

/**
 * Locks the records' webhooks in id order, then their deliveries still leased as claimed, in one
 * statement (the branches of a UNION ALL run in order); the webhooks' organization and consecutive
 * failures, and the deliveries' ids. The webhooks take `FOR NO KEY UPDATE`, the lock the health
 * UPDATE takes anyway: it excludes other recorders and a running total's `FOR SHARE`, but not the
 * key-share lock of a foreign key check, so events keep queueing deliveries for these webhooks
 * while a flush is in progress.
 */
async function lockRecords(
  q: SqlQueryable,
  t: Tables,
  records: readonly LeasedAttemptRecord[],
): Promise<Locked> {
  const claimed = records.filter((r) => r.outcome !== 'test');
  const { rows } = await q.query<{
    id: string;
    organization_id: string | null;
    consecutive_failures: number | null;
  }>(
    `WITH w AS (SELECT id, organization_id, consecutive_failures FROM ${t.webhooks}
       WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE),
     d AS (SELECT d.id FROM ${t.deliveries} d
       JOIN unnest($2::text[], $3::timestamptz[]) AS m(id, lease) ON d.id = m.id AND d.lease_until = m.lease
       ORDER BY d.id FOR UPDATE OF d)
     SELECT id, organization_id, consecutive_failures FROM w
     UNION ALL SELECT id, NULL, NULL FROM d`,
    [
      [...new Set(records.map((r) => r.attempt.webhook_id))],
      claimed.map((r) => r.attempt.delivery_id),
      claimed.map((r) => r.lease),
    ],
  );
  const locked: Locked = { webhooks: new Map(), leased: new Set() };
  for (const row of rows) {
    if (row.organization_id === null) locked.leased.add(row.id);
    else
      locked.webhooks.set(row.id, {
        organization_id: row.organization_id,
        consecutive_failures: Number(row.consecutive_failures),
      });
  }
  return locked;
}

/** Folds a recorded outcome into its webhook's health, as recording it alone would change it. */
function foldHealth(health: Health, { attempt, outcome }: LeasedAttemptRecord): void {
  health.lastDelivery = JSON.stringify(lastDeliveryOf(attempt));
  if (attempt.error) health.lastError = errorJson(attempt);
  if (outcome === 'delivered') health.failures = 0;
  else if (outcome !== 'test') health.failures++;
  if (outcome === 'dead_letter') health.dead = true;
}

/** The CTE writing the webhooks' health (a null last error keeps the one stored). */
function healthCte(t: Tables, p: SqlParams, healths: Map<string, Health>): string {
  const all = [...healths.values()];
  return `health AS (
     UPDATE ${t.webhooks} w SET last_delivery = m.last_delivery, last_error = COALESCE(m.last_error, w.last_error),
       consecutive_failures = m.failures, status = CASE WHEN m.dead THEN 'dead_letter' ELSE w.status END
     FROM unnest(${p.add([...healths.keys()])}::text[], ${p.add(all.map((h) => h.lastDelivery))}::jsonb[],
       ${p.add(all.map((h) => h.lastError))}::jsonb[], ${p.add(all.map((h) => h.failures))}::int[],
       ${p.add(all.map((h) => h.dead))}::bool[]) AS m(id, last_delivery, last_error, failures, dead)
     WHERE w.id = m.id)`;
}

/** The leases of `claimed` (all recorded), counted by webhook and lease end. */
function endedLeases(
  claimed: readonly LeasedAttemptRecord[],
): { webhook: string; lease: string; n: number }[] {
  const ended = new Map<string, { webhook: string; lease: string; n: number }>();
  for (const { attempt, lease } of claimed) {
    const key = `${attempt.webhook_id} ${lease}`;
    const entry = ended.get(key);
    if (entry) entry.n++;
    else ended.set(key, { webhook: attempt.webhook_id, lease: lease ?? '', n: 1 });
  }
  return [...ended.values()];
}

/**
 * The CTEs settling the deliveries: a delivered one leaves the outbox; the others count the attempt
 * and lose their lease (taken off the lease counts), a retry is due at its next attempt, a dead letter is held; a webhook
 * dead-lettered in the batch holds its pending deliveries, those recorded in the batch included
 * (recorded one by one, each would have been held by the dead letter before or after its own
 * record). None for a batch of tests only.
 */
function settleCtes(
  t: Tables,
  p: SqlParams,
  records: readonly LeasedAttemptRecord[],
  deadWebhooks: string[],
): string[] {
  const claimed = records.filter((r) => r.outcome !== 'test');
  if (claimed.length === 0) return [];
  const dead = p.add(deadWebhooks);
  const ended = endedLeases(claimed);
  return [
    leasesEndedCte(
      t,
      `SELECT * FROM unnest(${p.add(ended.map((e) => e.webhook))}::text[], ${p.add(ended.map((e) => e.lease))}::timestamptz[],
         ${p.add(ended.map((e) => e.n))}::int[]) AS e(webhook_id, lease, n)`,
    ),
    `m AS (SELECT * FROM unnest(${p.add(claimed.map((r) => r.attempt.delivery_id))}::text[],
       ${p.add(claimed.map((r) => r.outcome))}::text[],
       ${p.add(claimed.map((r) => r.attempt.next_attempt_at ?? r.attempt.at))}::timestamptz[]) AS m(id, outcome, next_at))`,
    `done AS (DELETE FROM ${t.deliveries} d USING m WHERE d.id = m.id AND m.outcome = 'delivered')`,
    `held AS (UPDATE ${t.deliveries} d SET state = 'held'
       WHERE d.webhook_id = ANY(${dead}::text[]) AND d.state = 'pending' AND NOT EXISTS (SELECT 1 FROM m WHERE m.id = d.id))`,
    `settled AS (UPDATE ${t.deliveries} d SET attempts = d.attempts + 1, lease_until = NULL,
       next_attempt_at = CASE WHEN m.outcome = 'retry' THEN m.next_at ELSE d.next_attempt_at END,
       state = CASE WHEN m.outcome = 'dead_letter' OR d.webhook_id = ANY(${dead}::text[]) THEN 'held' ELSE d.state END
     FROM m WHERE d.id = m.id AND m.outcome <> 'delivered')`,
  ];
}

/** See `DeliveryRepository.recordMany`; runs in the caller's transaction, `q`. */
export async function recordAttempts(
  q: SqlQueryable,
  t: Tables,
  records: readonly LeasedAttemptRecord[],
): Promise<boolean[]> {
  if (records.length === 0) return [];
  // Both statements on their generic plans: planned afresh at each execution they cost more.
  onGenericPlans(q);
  const { webhooks, leased } = await lockRecords(q, t, records);
  const healths = new Map<string, Health>();
  const recorded = records.map((record) => {
    const { attempt, outcome } = record;
    const webhook = webhooks.get(attempt.webhook_id);
    if (!webhook || webhook.organization_id !== attempt.organization_id) return false;
    if (outcome !== 'test' && !leased.has(attempt.delivery_id ?? '')) return false;
    const health = healths.get(attempt.webhook_id) ?? {
      failures: webhook.consecutive_failures,
      lastDelivery: '',
      lastError: null,
      dead: false,
    };
    foldHealth(health, record);
    healths.set(attempt.webhook_id, health);
    return true;
  });
  const kept = records.filter((_, i) => recorded[i]);
  if (kept.length === 0) return recorded;
  const dead = [...healths].filter(([, health]) => health.dead).map(([id]) => id);
  const sums = sumShares(kept.map((r) => r.attempt));
  const p = new SqlParams();
  const ctes = [
    attemptsCte(t, p, kept),
    rollupsCte(t, p, sums),
    totalsCte(t, p, sums),
    healthCte(t, p, healths),
    ...settleCtes(t, p, kept, dead),
  ];
  // Data-modifying CTEs all run, to the end, whether the final SELECT reads them or not. Nothing of
  // its answer is needed: on pg it goes with the COMMIT, so the locks are held one round trip less.
  await sendDeferred(q, `WITH ${ctes.join(',\n')}\nSELECT 1`, p.values);
  return recorded;
}
