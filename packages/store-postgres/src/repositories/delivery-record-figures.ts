/**
 * What a batch of recorded attempts adds on SQL, a statement each however many attempts: the
 * attempt rows; their shares (core's `sumShares`) summed per webhook and minute or hour and added to
 * the rollups in one upsert; and the minute sums moved into the running totals that count them (each
 * total before a boundary after the sum's minute: core's `countsBefore`), read and written once per
 * total. The caller holds the webhooks' row locks, so no total is being taken meanwhile.
 */
import {
  type DeliveryAttempt,
  emptyRollup,
  type LeasedAttemptRecord,
  mergeRollup,
  type Rollup,
  recordedLatency,
  sumShares,
} from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
import type { Tables } from '../schema-name.js';
import { ATTEMPT_COLUMNS } from './delivery-rows.js';
import { ROLLUP_COLUMNS, toRollup } from './rollup-rows.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A SQL expression: two jsonb maps of counts added key by key. */
const addCounts = (a: string, b: string) =>
  `(SELECT COALESCE(jsonb_object_agg(k, n), '{}'::jsonb) FROM (
     SELECT k, sum(v::bigint) AS n FROM (
       SELECT key AS k, value AS v FROM jsonb_each_text(${a}) UNION ALL SELECT key, value FROM jsonb_each_text(${b})
     ) e GROUP BY k) s)`;

/** The attempt rows, in order, in one statement. */
export async function insertAttempts(
  q: SqlQueryable,
  t: Tables,
  records: readonly LeasedAttemptRecord[],
): Promise<void> {
  const column = <T>(pick: (attempt: DeliveryAttempt) => T) => records.map((r) => pick(r.attempt));
  await q.query(
    `INSERT INTO ${t.attempts} (${ATTEMPT_COLUMNS})
     SELECT id, organization_id, webhook_id, delivery_id, event_id, event_type, attempt, at, succeeded,
       status_code, latency_ms, error, next_attempt_at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
       $8::timestamptz[], $9::bool[], $10::int[], $11::int[], $12::jsonb[], $13::timestamptz[])
       WITH ORDINALITY AS m(id, organization_id, webhook_id, delivery_id, event_id, event_type, attempt, at,
         succeeded, status_code, latency_ms, error, next_attempt_at, n)
     ORDER BY n`,
    [
      column((a) => a.id),
      column((a) => a.organization_id),
      column((a) => a.webhook_id),
      column((a) => a.delivery_id),
      column((a) => a.event_id),
      column((a) => a.event_type),
      column((a) => a.attempt),
      column((a) => a.at),
      column((a) => a.succeeded),
      column((a) => a.status_code),
      column((a) => recordedLatency(a.latency_ms)),
      column((a) => (a.error === null ? null : JSON.stringify(a.error))),
      column((a) => a.next_attempt_at),
    ],
  );
}

/** The batch's sums added to their minute and hour rollups, in one upsert. */
export async function upsertRollups(
  q: SqlQueryable,
  t: Tables,
  records: readonly LeasedAttemptRecord[],
): Promise<void> {
  const sums = sumShares(records.map((r) => r.attempt));
  await q.query(
    `INSERT INTO ${t.rollups} AS r (webhook_id, unit, start, organization_id, ${ROLLUP_COLUMNS})
     SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::int[], $6::int[], $7::int[],
       $8::jsonb[], $9::jsonb[])
     ON CONFLICT (webhook_id, unit, start) DO UPDATE SET
       attempted = r.attempted + EXCLUDED.attempted,
       succeeded = r.succeeded + EXCLUDED.succeeded,
       failed = r.failed + EXCLUDED.failed,
       buckets = ${addCounts('r.buckets', 'EXCLUDED.buckets')},
       histogram = ${addCounts('r.histogram', 'EXCLUDED.histogram')}`,
    [
      sums.map((s) => s.webhookId),
      sums.map((s) => s.unit),
      sums.map((s) => iso(s.start)),
      sums.map((s) => s.organizationId),
      sums.map((s) => s.rollup.attempted),
      sums.map((s) => s.rollup.succeeded),
      sums.map((s) => s.rollup.failed),
      sums.map((s) => JSON.stringify(s.rollup.buckets)),
      sums.map((s) => JSON.stringify(s.rollup.histogram)),
    ],
  );
}

/**
 * The batch's minute sums added to every running total that counts them: the totals after the
 * earliest of its minutes read once, each summed in the process and written back in one statement.
 */
export async function moveRunningTotals(
  q: SqlQueryable,
  t: Tables,
  records: readonly LeasedAttemptRecord[],
): Promise<void> {
  const minutes = sumShares(records.map((r) => r.attempt)).filter((s) => s.unit === 'minute');
  const earliest = Math.min(...minutes.map((s) => s.start));
  const { rows } = await q.query(
    `SELECT webhook_id, boundary, ${ROLLUP_COLUMNS} FROM ${t.totals}
     WHERE webhook_id = ANY($1::text[]) AND boundary > $2`,
    [[...new Set(minutes.map((s) => s.webhookId))], iso(earliest)],
  );
  const moved: { webhookId: string; boundary: Date | string; total: Rollup }[] = [];
  for (const row of rows) {
    const webhookId = row['webhook_id'] as string;
    const boundary = Date.parse(
      row['boundary'] instanceof Date ? row['boundary'].toISOString() : String(row['boundary']),
    );
    const added = emptyRollup();
    for (const sum of minutes)
      if (sum.webhookId === webhookId && boundary > sum.start) mergeRollup(added, sum.rollup);
    if (added.attempted === 0) continue;
    const total = toRollup(row);
    mergeRollup(total, added);
    moved.push({ webhookId, boundary: iso(boundary), total });
  }
  if (moved.length === 0) return;
  await q.query(
    `UPDATE ${t.totals} x SET attempted = m.attempted, succeeded = m.succeeded, failed = m.failed,
       buckets = m.buckets, histogram = m.histogram
     FROM unnest($1::text[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::bigint[], $6::jsonb[], $7::jsonb[])
       AS m(webhook_id, boundary, attempted, succeeded, failed, buckets, histogram)
     WHERE x.webhook_id = m.webhook_id AND x.boundary = m.boundary`,
    [
      moved.map((m) => m.webhookId),
      moved.map((m) => m.boundary),
      moved.map((m) => m.total.attempted),
      moved.map((m) => m.total.succeeded),
      moved.map((m) => m.total.failed),
      moved.map((m) => JSON.stringify(m.total.buckets)),
      moved.map((m) => JSON.stringify(m.total.histogram)),
    ],
  );
}
