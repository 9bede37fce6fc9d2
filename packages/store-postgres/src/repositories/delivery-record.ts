/**
 * Recording delivery attempts on SQL, many in one transaction and a constant number of statements
 * whatever their number (see `DeliveryRepository.recordMany`): the webhooks' rows locked in id order
 * (so attempts of one webhook are recorded one batch after another, no running total is being taken
 * meanwhile, and two workers lock in the same order), the leases checked, then the attempt rows, the
 * rollups and running totals (`delivery-record-figures.ts`), the webhooks' health folded in order
 * and written in one statement, and the deliveries' states in one. `record` is a batch of one.
 */
import { type DeliveryAttempt, type LeasedAttemptRecord, lastDeliveryOf } from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
import type { Tables } from '../schema-name.js';
import { insertAttempts, moveRunningTotals, upsertRollups } from './delivery-record-figures.js';

const errorJson = (attempt: DeliveryAttempt) =>
  attempt.error === null ? null : JSON.stringify(attempt.error);

/** A webhook's health as its recorded outcomes in order leave it. */
interface Health {
  failures: number;
  lastDelivery: string;
  lastError: string | null;
  dead: boolean;
}

/**
 * Locks the records' webhooks in id order; their organization and consecutive failures, by id.
 * `FOR NO KEY UPDATE`, the lock the health UPDATE takes anyway: it excludes other recorders and a
 * running total's `FOR SHARE`, but not the key-share lock of a foreign key check, so events keep
 * queueing deliveries for these webhooks while a flush is in progress.
 */
async function lockWebhooks(q: SqlQueryable, t: Tables, records: readonly LeasedAttemptRecord[]) {
  const ids = [...new Set(records.map((r) => r.attempt.webhook_id))];
  const { rows } = await q.query<{ id: string; organization_id: string; consecutive_failures: number }>(
    `SELECT id, organization_id, consecutive_failures FROM ${t.webhooks}
     WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Locks the records' deliveries still leased as claimed; their ids. */
async function leasedAsClaimed(q: SqlQueryable, t: Tables, records: readonly LeasedAttemptRecord[]) {
  const claimed = records.filter((r) => r.outcome !== 'test');
  if (claimed.length === 0) return new Set<string>();
  const { rows } = await q.query<{ id: string }>(
    `SELECT d.id FROM ${t.deliveries} d
     JOIN unnest($1::text[], $2::timestamptz[]) AS m(id, lease) ON d.id = m.id AND d.lease_until = m.lease
     ORDER BY d.id FOR UPDATE OF d`,
    [claimed.map((r) => r.attempt.delivery_id), claimed.map((r) => r.lease)],
  );
  return new Set(rows.map((row) => row.id));
}

/** Folds a recorded outcome into its webhook's health, as recording it alone would change it. */
function foldHealth(health: Health, { attempt, outcome }: LeasedAttemptRecord): void {
  health.lastDelivery = JSON.stringify(lastDeliveryOf(attempt));
  if (attempt.error) health.lastError = errorJson(attempt);
  if (outcome === 'delivered') health.failures = 0;
  else if (outcome !== 'test') health.failures++;
  if (outcome === 'dead_letter') health.dead = true;
}

/** Writes the webhooks' health in one statement (a null last error keeps the one stored). */
async function writeHealth(q: SqlQueryable, t: Tables, healths: Map<string, Health>): Promise<void> {
  const ids = [...healths.keys()];
  const all = [...healths.values()];
  await q.query(
    `UPDATE ${t.webhooks} w SET last_delivery = m.last_delivery, last_error = COALESCE(m.last_error, w.last_error),
       consecutive_failures = m.failures, status = CASE WHEN m.dead THEN 'dead_letter' ELSE w.status END
     FROM unnest($1::text[], $2::jsonb[], $3::jsonb[], $4::int[], $5::bool[]) AS m(id, last_delivery, last_error, failures, dead)
     WHERE w.id = m.id`,
    [
      ids,
      all.map((h) => h.lastDelivery),
      all.map((h) => h.lastError),
      all.map((h) => h.failures),
      all.map((h) => h.dead),
    ],
  );
}

/**
 * The deliveries' states in one statement: a delivered one leaves the outbox; the others count the
 * attempt and lose their lease, a retry is due at its next attempt, a dead letter is held; a webhook
 * dead-lettered in the batch holds its pending deliveries, those recorded in the batch included
 * (recorded one by one, each would have been held by the dead letter before or after its own record).
 */
async function settle(
  q: SqlQueryable,
  t: Tables,
  records: readonly LeasedAttemptRecord[],
  deadWebhooks: string[],
): Promise<void> {
  const claimed = records.filter((r) => r.outcome !== 'test');
  if (claimed.length === 0) return;
  await q.query(
    `WITH m AS (SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS m(id, outcome, next_at)),
     done AS (DELETE FROM ${t.deliveries} d USING m WHERE d.id = m.id AND m.outcome = 'delivered'),
     held AS (UPDATE ${t.deliveries} d SET state = 'held'
       WHERE d.webhook_id = ANY($4::text[]) AND d.state = 'pending' AND NOT EXISTS (SELECT 1 FROM m WHERE m.id = d.id))
     UPDATE ${t.deliveries} d SET attempts = d.attempts + 1, lease_until = NULL,
       next_attempt_at = CASE WHEN m.outcome = 'retry' THEN m.next_at ELSE d.next_attempt_at END,
       state = CASE WHEN m.outcome = 'dead_letter' OR d.webhook_id = ANY($4::text[]) THEN 'held' ELSE d.state END
     FROM m WHERE d.id = m.id AND m.outcome <> 'delivered'`,
    [
      claimed.map((r) => r.attempt.delivery_id),
      claimed.map((r) => r.outcome),
      claimed.map((r) => r.attempt.next_attempt_at ?? r.attempt.at),
      deadWebhooks,
    ],
  );
}

/** See `DeliveryRepository.recordMany`; runs in the caller's transaction, `q`. */
export async function recordAttempts(
  q: SqlQueryable,
  t: Tables,
  records: readonly LeasedAttemptRecord[],
): Promise<boolean[]> {
  if (records.length === 0) return [];
  const webhooks = await lockWebhooks(q, t, records);
  const leased = await leasedAsClaimed(q, t, records);
  const healths = new Map<string, Health>();
  const recorded = records.map((record) => {
    const { attempt, outcome } = record;
    const webhook = webhooks.get(attempt.webhook_id);
    if (!webhook || webhook.organization_id !== attempt.organization_id) return false;
    if (outcome !== 'test' && !leased.has(attempt.delivery_id ?? '')) return false;
    const health = healths.get(webhook.id) ?? {
      failures: webhook.consecutive_failures,
      lastDelivery: '',
      lastError: null,
      dead: false,
    };
    foldHealth(health, record);
    healths.set(webhook.id, health);
    return true;
  });
  const kept = records.filter((_, i) => recorded[i]);
  if (kept.length === 0) return recorded;
  await insertAttempts(q, t, kept);
  await upsertRollups(q, t, kept);
  await moveRunningTotals(q, t, kept);
  await writeHealth(q, t, healths);
  const dead = [...healths].filter(([, health]) => health.dead).map(([id]) => id);
  await settle(q, t, kept, dead);
  return recorded;
}
