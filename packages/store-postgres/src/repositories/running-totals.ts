/**
 * Running totals of delivery attempts on SQL (see `DeliveryRepository.totalsBefore`): a webhook's
 * total before an hour boundary is the sum of its hour rollups that started before it. A total is
 * taken once, from the latest earlier total plus the hour rollups since, while the webhooks' rows
 * are share-locked (no attempt of theirs is being recorded meanwhile: `record` updates that row
 * first); afterwards `record` adds each attempt to the totals after its hour. So a metrics window
 * reads two rows per webhook, whatever the traffic.
 */
import {
  type DeliveryAttempt,
  emptyRollup,
  floorTo,
  HOUR_MS,
  latencyBucket,
  latencyBucketKey,
  mergeRollup,
  type Rollup,
  recordedLatency,
} from '@latchkey/core';
import type { SqlQueryable } from '../driver.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

const toRollup = (r: Record<string, unknown>): Rollup => ({
  attempted: Number(r['attempted']),
  succeeded: Number(r['succeeded']),
  failed: Number(r['failed']),
  buckets: json(r['buckets']),
  histogram: json(r['histogram']),
});

/** In `record`'s transaction, after the webhook's row is locked: the attempt joins every later total. */
export async function addToLaterTotals(q: SqlQueryable, t: Tables, attempt: DeliveryAttempt): Promise<void> {
  const ms = recordedLatency(attempt.latency_ms);
  const ok = attempt.succeeded ? 1 : 0;
  await q.query(
    `UPDATE ${t.totals} SET attempted = attempted + 1, succeeded = succeeded + $3, failed = failed + $4,
       buckets = jsonb_set(buckets, ARRAY[$5::text], to_jsonb(COALESCE((buckets ->> $5::text)::bigint, 0) + 1)),
       histogram = jsonb_set(histogram, ARRAY[$6::text], to_jsonb(COALESCE((histogram ->> $6::text)::bigint, 0) + 1))
     WHERE webhook_id = $1 AND hour > $2`,
    [
      attempt.webhook_id,
      new Date(floorTo(Date.parse(attempt.at), HOUR_MS)).toISOString(),
      ok,
      1 - ok,
      latencyBucketKey(ms),
      String(latencyBucket(ms)),
    ],
  );
}

/** Takes the missing totals before `hour` of the organization's webhooks; the caller holds their share locks. */
async function takeTotals(q: SqlQueryable, t: Tables, organizationId: string, hour: string): Promise<void> {
  const { rows: missing } = await q.query(
    `SELECT w.id, w.organization_id, b.hour AS base_hour, b.attempted, b.succeeded, b.failed, b.buckets, b.histogram
     FROM ${t.webhooks} w
     LEFT JOIN LATERAL (
       SELECT x.hour, x.attempted, x.succeeded, x.failed, x.buckets, x.histogram FROM ${t.totals} x
       WHERE x.webhook_id = w.id AND x.hour < $2 ORDER BY x.hour DESC LIMIT 1
     ) b ON TRUE
     WHERE w.organization_id = $1
       AND NOT EXISTS (SELECT 1 FROM ${t.totals} y WHERE y.webhook_id = w.id AND y.hour = $2)`,
    [organizationId, hour],
  );
  if (missing.length === 0) return;
  const totals = new Map<string, Rollup>();
  for (const row of missing) {
    totals.set(row['id'] as string, row['base_hour'] === null ? emptyRollup() : toRollup(row));
  }
  const { rows: hours } = await q.query(
    `SELECT r.webhook_id, r.attempted, r.succeeded, r.failed, r.buckets, r.histogram
     FROM unnest($1::text[], $2::timestamptz[]) AS m(id, base)
     JOIN ${t.rollups} r ON r.webhook_id = m.id AND r.unit = 'hour' AND r.start >= m.base AND r.start < $3`,
    [
      missing.map((row) => row['id']),
      missing.map((row) => (row['base_hour'] === null ? '-infinity' : row['base_hour'])),
      hour,
    ],
  );
  for (const row of hours) mergeRollup(totals.get(row['webhook_id'] as string)!, toRollup(row));
  const ids = [...totals.keys()];
  const organizationOf = new Map(
    missing.map((row) => [row['id'] as string, row['organization_id'] as string]),
  );
  await q.query(
    `INSERT INTO ${t.totals} (webhook_id, hour, organization_id, attempted, succeeded, failed, buckets, histogram)
     SELECT m.id, $2, m.organization_id, m.attempted, m.succeeded, m.failed, m.buckets, m.histogram
     FROM unnest($1::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::jsonb[], $8::jsonb[])
       AS m(id, organization_id, attempted, succeeded, failed, buckets, histogram)
     ON CONFLICT (webhook_id, hour) DO NOTHING`,
    [
      ids,
      hour,
      ids.map((id) => organizationOf.get(id)),
      ids.map((id) => totals.get(id)!.attempted),
      ids.map((id) => totals.get(id)!.succeeded),
      ids.map((id) => totals.get(id)!.failed),
      ids.map((id) => JSON.stringify(totals.get(id)!.buckets)),
      ids.map((id) => JSON.stringify(totals.get(id)!.histogram)),
    ],
  );
}

/**
 * Share-locks the rows of the organization's webhooks (in id order: no attempt of theirs is being
 * recorded until the caller's transaction ends), then takes their totals before `hours`.
 */
export async function takeAllTotals(
  q: SqlQueryable,
  t: Tables,
  organizationId: string,
  hours: string[],
): Promise<void> {
  await q.query(`SELECT id FROM ${t.webhooks} WHERE organization_id = $1 ORDER BY id FOR SHARE`, [
    organizationId,
  ]);
  for (const hour of hours) await takeTotals(q, t, organizationId, hour);
}

/** Every webhook's total before each of `hours`, or null when one of them has not been taken yet. */
async function readTotals(
  db: Runner,
  t: Tables,
  organizationId: string,
  hours: string[],
): Promise<Map<string, Map<string, Rollup>> | null> {
  const { rows } = await db.query(
    `SELECT w.id, h.n, x.attempted, x.succeeded, x.failed, x.buckets, x.histogram
     FROM ${t.webhooks} w
     CROSS JOIN unnest($2::timestamptz[]) WITH ORDINALITY AS h(hour, n)
     LEFT JOIN ${t.totals} x ON x.webhook_id = w.id AND x.hour = h.hour
     WHERE w.organization_id = $1`,
    [organizationId, hours],
  );
  const result = new Map(hours.map((hour) => [hour, new Map<string, Rollup>()]));
  for (const row of rows) {
    if (row['attempted'] === null || row['attempted'] === undefined) return null;
    result.get(hours[Number(row['n']) - 1]!)!.set(row['id'] as string, toRollup(row));
  }
  return result;
}

export async function totalsBefore(
  db: Runner,
  t: Tables,
  organizationId: string,
  hours: string[],
): Promise<Map<string, Map<string, Rollup>>> {
  const found = await readTotals(db, t, organizationId, hours);
  if (found) return found;
  await db.atomic((q) => takeAllTotals(q, t, organizationId, hours));
  return (await readTotals(db, t, organizationId, hours))!;
}
