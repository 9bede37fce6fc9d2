/**
 * Reading and pruning the minute and hour rollups of delivery attempts on SQL. Recording adds to
 * them (`delivery-record-figures.ts`): what an attempt adds, and to which rollups, is core's rule.
 */
import { emptyRollup, mergeRollup, type Rollup } from '@latchkey/core/store';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { organizationIdsQuery } from './audit-webhooks.js';
import { ROLLUP_COLUMNS, toRollup } from './rollup-rows.js';
import { takeAllTotals } from './running-totals.js';

/** See `DeliveryRepository.minuteRollups`. */
export async function minuteRollups(
  db: Runner,
  t: Tables,
  organizationId: string,
  ranges: { from: string; to: string }[],
): Promise<Map<string, Rollup>> {
  if (ranges.length === 0) return new Map();
  const params: unknown[] = [organizationId];
  const minutes = ranges
    .map((range) => {
      params.push(range.from, range.to);
      return `(start >= $${params.length - 1} AND start < $${params.length})`;
    })
    .join(' OR ');
  const { rows } = await db.query(
    `SELECT webhook_id, ${ROLLUP_COLUMNS} FROM ${t.rollups}
     WHERE organization_id = $1 AND unit = 'minute' AND (${minutes})`,
    params,
  );
  const merged = new Map<string, Rollup>();
  for (const r of rows) {
    const id = r['webhook_id'] as string;
    const total = merged.get(id) ?? emptyRollup();
    mergeRollup(total, toRollup(r));
    merged.set(id, total);
  }
  return merged;
}

/** See `DeliveryRepository.pruneRollups`. */
export async function pruneRollups(db: Runner, t: Tables, before: string): Promise<number> {
  // The totals at the cutoff first, one organization at a time (each locks only its own
  // webhooks, briefly): later totals are taken from them, not from the rollups deleted next.
  const { rows } = await db.query<{ organization_id: string }>(organizationIdsQuery(t));
  for (const { organization_id } of rows) {
    await db.atomic((q) => takeAllTotals(q, t, organization_id, [before]));
  }
  const rollups = await db.query(`DELETE FROM ${t.rollups} WHERE start < $1`, [before]);
  const totals = await db.query(`DELETE FROM ${t.totals} WHERE boundary < $1`, [before]);
  return rollups.rowCount + totals.rowCount;
}
