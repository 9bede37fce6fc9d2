/**
 * What a batch of recorded attempts adds on SQL, each a data-modifying CTE of the flush's one
 * writing statement (`delivery-record.ts`) however many attempts: the attempt rows; their shares
 * (core's `sumShares`) summed per webhook and minute or hour and added to the rollups in one upsert;
 * and the minute sums added to the running totals that count them (each total before a boundary
 * after the sum's minute: core's `countsBefore`), in one UPDATE that adds in SQL, so it needs no read
 * first. The caller holds the webhooks' row locks, so no total is being taken meanwhile.
 */
import {
  type DeliveryAttempt,
  emptyRollup,
  type LeasedAttemptRecord,
  mergeRollup,
  type Rollup,
  recordedLatency,
  type SummedShare,
} from '@latchkey/core/store';
import type { Tables } from '../schema-name.js';
import { ATTEMPT_COLUMNS } from './delivery-rows.js';
import { ROLLUP_COLUMNS } from './rollup-rows.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A statement's parameters as its fragments add them: `add` returns the placeholder. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A SQL expression: two jsonb maps of counts added key by key. */
const addCounts = (a: string, b: string) =>
  `(SELECT COALESCE(jsonb_object_agg(k, n), '{}'::jsonb) FROM (
     SELECT k, sum(v::bigint) AS n FROM (
       SELECT key AS k, value AS v FROM jsonb_each_text(${a}) UNION ALL SELECT key, value FROM jsonb_each_text(${b})
     ) e GROUP BY k) s)`;

/** The CTE inserting the attempt rows, in order. */
export function attemptsCte(t: Tables, p: SqlParams, records: readonly LeasedAttemptRecord[]): string {
  const column = <T>(pick: (attempt: DeliveryAttempt) => T) => p.add(records.map((r) => pick(r.attempt)));
  return `attempts_added AS (
     INSERT INTO ${t.attempts} (${ATTEMPT_COLUMNS})
     SELECT id, organization_id, webhook_id, delivery_id, event_id, event_type, attempt, at, succeeded,
       status_code, latency_ms, error, next_attempt_at
     FROM unnest(${column((a) => a.id)}::text[], ${column((a) => a.organization_id)}::text[],
       ${column((a) => a.webhook_id)}::text[], ${column((a) => a.delivery_id)}::text[],
       ${column((a) => a.event_id)}::text[], ${column((a) => a.event_type)}::text[],
       ${column((a) => a.attempt)}::int[], ${column((a) => a.at)}::timestamptz[],
       ${column((a) => a.succeeded)}::bool[], ${column((a) => a.status_code)}::int[],
       ${column((a) => recordedLatency(a.latency_ms))}::int[],
       ${column((a) => (a.error === null ? null : JSON.stringify(a.error)))}::jsonb[],
       ${column((a) => a.next_attempt_at)}::timestamptz[])
       WITH ORDINALITY AS m(id, organization_id, webhook_id, delivery_id, event_id, event_type, attempt, at,
         succeeded, status_code, latency_ms, error, next_attempt_at, n)
     ORDER BY n)`;
}

/** The CTE adding the batch's sums to their minute and hour rollups, in one upsert. */
export function rollupsCte(t: Tables, p: SqlParams, sums: readonly SummedShare[]): string {
  const column = <T>(pick: (sum: SummedShare) => T) => p.add(sums.map(pick));
  return `rollups_added AS (
     INSERT INTO ${t.rollups} AS r (webhook_id, unit, start, organization_id, ${ROLLUP_COLUMNS})
     SELECT * FROM unnest(${column((s) => s.webhookId)}::text[], ${column((s) => s.unit)}::text[],
       ${column((s) => iso(s.start))}::timestamptz[], ${column((s) => s.organizationId)}::text[],
       ${column((s) => s.rollup.attempted)}::int[], ${column((s) => s.rollup.succeeded)}::int[],
       ${column((s) => s.rollup.failed)}::int[], ${column((s) => JSON.stringify(s.rollup.buckets))}::jsonb[],
       ${column((s) => JSON.stringify(s.rollup.histogram))}::jsonb[])
     ON CONFLICT (webhook_id, unit, start) DO UPDATE SET
       attempted = r.attempted + EXCLUDED.attempted,
       succeeded = r.succeeded + EXCLUDED.succeeded,
       failed = r.failed + EXCLUDED.failed,
       buckets = ${addCounts('r.buckets', 'EXCLUDED.buckets')},
       histogram = ${addCounts('r.histogram', 'EXCLUDED.histogram')})`;
}

/**
 * What a running total with a boundary in `(after, until]` (`until` null: no end) gains: the sum of
 * the webhook's minutes that start before its boundary. A webhook's minutes in start order make such
 * steps, each adding the minutes up to it, so each total matches exactly one step.
 */
interface TotalStep {
  webhookId: string;
  after: number;
  until: number | null;
  added: Rollup;
}

function totalSteps(sums: readonly SummedShare[]): TotalStep[] {
  const byWebhook = new Map<string, SummedShare[]>();
  for (const sum of sums) {
    if (sum.unit !== 'minute') continue;
    byWebhook.set(sum.webhookId, [...(byWebhook.get(sum.webhookId) ?? []), sum]);
  }
  const steps: TotalStep[] = [];
  for (const [webhookId, minutes] of byWebhook) {
    minutes.sort((a, b) => a.start - b.start);
    const added = emptyRollup();
    for (const [i, minute] of minutes.entries()) {
      mergeRollup(added, minute.rollup);
      steps.push({
        webhookId,
        after: minute.start,
        until: minutes[i + 1]?.start ?? null,
        added: structuredClone(added),
      });
    }
  }
  return steps;
}

/** The CTE adding the batch's minute sums to every running total that counts them, in one UPDATE. */
export function totalsCte(t: Tables, p: SqlParams, sums: readonly SummedShare[]): string {
  const steps = totalSteps(sums);
  const column = <T>(pick: (step: TotalStep) => T) => p.add(steps.map(pick));
  return `totals_moved AS (
     UPDATE ${t.totals} x SET attempted = x.attempted + m.attempted, succeeded = x.succeeded + m.succeeded,
       failed = x.failed + m.failed, buckets = ${addCounts('x.buckets', 'm.buckets')},
       histogram = ${addCounts('x.histogram', 'm.histogram')}
     FROM unnest(${column((s) => s.webhookId)}::text[], ${column((s) => iso(s.after))}::timestamptz[],
       ${column((s) => (s.until === null ? null : iso(s.until)))}::timestamptz[],
       ${column((s) => s.added.attempted)}::bigint[], ${column((s) => s.added.succeeded)}::bigint[],
       ${column((s) => s.added.failed)}::bigint[], ${column((s) => JSON.stringify(s.added.buckets))}::jsonb[],
       ${column((s) => JSON.stringify(s.added.histogram))}::jsonb[])
       AS m(webhook_id, after, until, attempted, succeeded, failed, buckets, histogram)
     WHERE x.webhook_id = m.webhook_id AND x.boundary > m.after AND (m.until IS NULL OR x.boundary <= m.until))`;
}
