/**
 * Running totals of delivery attempts on SQL (see `DeliveryRepository.totalsBefore`): a webhook's
 * total before a minute boundary is the sum of its attempts that started before it. A total is
 * taken once, from the latest earlier total plus the rollups since (minutes at the ends, whole
 * hours between), while the webhooks' rows are share-locked (no attempt of theirs is being recorded
 * meanwhile: recording locks that row first); afterwards recording adds each attempt to the totals
 * after its minute (`delivery-record-figures.ts`). So a metrics window reads three rows per webhook, whatever the traffic.
 */
import { emptyRollup, mergeRollup, type Rollup, supersedes, totalCover } from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { toRollup } from './rollup-rows.js';

const toIso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : '-infinity');

/** Takes the missing totals before `boundary` of the organization's webhooks; the caller holds their share locks. */
async function takeTotals(
  q: SqlQueryable,
  t: Tables,
  organizationId: string,
  boundary: string,
): Promise<void> {
  const { rows: missing } = await q.query(
    `SELECT w.id, w.organization_id, b.boundary AS base, b.attempted, b.succeeded, b.failed, b.buckets, b.histogram
     FROM ${t.webhooks} w
     LEFT JOIN LATERAL (
       SELECT x.boundary, x.attempted, x.succeeded, x.failed, x.buckets, x.histogram FROM ${t.totals} x
       WHERE x.webhook_id = w.id AND x.boundary < $2 ORDER BY x.boundary DESC LIMIT 1
     ) b ON TRUE
     WHERE w.organization_id = $1
       AND NOT EXISTS (SELECT 1 FROM ${t.totals} y WHERE y.webhook_id = w.id AND y.boundary = $2)`,
    [organizationId, boundary],
  );
  if (missing.length === 0) return;
  const totals = new Map<string, Rollup>();
  // Per webhook, the rollup ranges from its base to the boundary: minutes at the ends, hours between.
  const ranges: { id: string; unit: 'minute' | 'hour'; from: string; to: string }[] = [];
  for (const row of missing) {
    const id = row['id'] as string;
    const base = row['base'] === null ? null : Date.parse(toIso(row['base']));
    totals.set(id, base === null ? emptyRollup() : toRollup(row));
    const span = totalCover(base, Date.parse(boundary));
    if (span.hours) ranges.push({ id, unit: 'hour', from: iso(span.hours.from), to: iso(span.hours.to) });
    for (const range of span.minutes)
      ranges.push({ id, unit: 'minute', from: iso(range.from), to: iso(range.to) });
  }
  const { rows: rollups } = await q.query(
    `SELECT r.webhook_id, r.attempted, r.succeeded, r.failed, r.buckets, r.histogram
     FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS m(id, unit, lo, hi)
     JOIN ${t.rollups} r ON r.webhook_id = m.id AND r.unit = m.unit AND r.start >= m.lo AND r.start < m.hi`,
    [ranges.map((r) => r.id), ranges.map((r) => r.unit), ranges.map((r) => r.from), ranges.map((r) => r.to)],
  );
  for (const row of rollups) mergeRollup(totals.get(row['webhook_id'] as string)!, toRollup(row));
  const ids = [...totals.keys()];
  const organizationOf = new Map(
    missing.map((row) => [row['id'] as string, row['organization_id'] as string]),
  );
  const superseded = missing.filter(
    (row) => row['base'] !== null && supersedes(Date.parse(boundary), Date.parse(toIso(row['base']))),
  );
  if (superseded.length > 0) {
    await q.query(
      `DELETE FROM ${t.totals} x USING unnest($1::text[], $2::timestamptz[]) AS m(id, boundary)
       WHERE x.webhook_id = m.id AND x.boundary = m.boundary`,
      [superseded.map((row) => row['id']), superseded.map((row) => toIso(row['base']))],
    );
  }
  await q.query(
    `INSERT INTO ${t.totals} (webhook_id, boundary, organization_id, attempted, succeeded, failed, buckets, histogram)
     SELECT m.id, $2, m.organization_id, m.attempted, m.succeeded, m.failed, m.buckets, m.histogram
     FROM unnest($1::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::jsonb[], $8::jsonb[])
       AS m(id, organization_id, attempted, succeeded, failed, buckets, histogram)
     ON CONFLICT (webhook_id, boundary) DO NOTHING`,
    [
      ids,
      boundary,
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
 * recorded until the caller's transaction ends), then takes their totals before `boundaries`.
 */
export async function takeAllTotals(
  q: SqlQueryable,
  t: Tables,
  organizationId: string,
  boundaries: string[],
): Promise<void> {
  await q.query(`SELECT id FROM ${t.webhooks} WHERE organization_id = $1 ORDER BY id FOR SHARE`, [
    organizationId,
  ]);
  for (const boundary of boundaries) await takeTotals(q, t, organizationId, boundary);
}

/** Every webhook's total before each of `boundaries`, or null when one of them has not been taken yet. */
async function readTotals(
  db: Runner,
  t: Tables,
  organizationId: string,
  boundaries: string[],
): Promise<Map<string, Map<string, Rollup>> | null> {
  const { rows } = await db.query(
    `SELECT w.id, h.n, x.attempted, x.succeeded, x.failed, x.buckets, x.histogram
     FROM ${t.webhooks} w
     CROSS JOIN unnest($2::timestamptz[]) WITH ORDINALITY AS h(boundary, n)
     LEFT JOIN ${t.totals} x ON x.webhook_id = w.id AND x.boundary = h.boundary
     WHERE w.organization_id = $1`,
    [organizationId, boundaries],
  );
  const result = new Map(boundaries.map((boundary) => [boundary, new Map<string, Rollup>()]));
  for (const row of rows) {
    if (row['attempted'] === null || row['attempted'] === undefined) return null;
    result.get(boundaries[Number(row['n']) - 1]!)!.set(row['id'] as string, toRollup(row));
  }
  return result;
}

/** See `DeliveryRepository.totalsBefore`: read, or taken first when one is missing. */
export async function totalsBefore(
  db: Runner,
  t: Tables,
  organizationId: string,
  boundaries: string[],
): Promise<Map<string, Map<string, Rollup>>> {
  const found = await readTotals(db, t, organizationId, boundaries);
  if (found) return found;
  await db.atomic((q) => takeAllTotals(q, t, organizationId, boundaries));
  return (await readTotals(db, t, organizationId, boundaries))!;
}
