/**
 * Seeds the audit webhook attempt log and its rollups straight into the tables, as recording the
 * same attempts one by one through `deliveries.record()` would leave them (that would take hours
 * for ten million): the attempt rows by one INSERT … SELECT FROM generate_series per chunk, then
 * the minute and hour rollups of the new rows derived from the attempts table itself by GROUP BY,
 * merged into the rows already there, and each webhook's `last_delivery` and `last_error`.
 *
 * Attempt i (1, 2, …) goes to webhook i mod W, at a time spread over the window by a Weyl sequence
 * (so every growth covers the whole 30 days, as more traffic would), fails (503) for about 2 % of
 * them, and takes 20–299 ms (85 %), 300–2,999 ms (12 %) or 3,000–9,999 ms (3 %). The latency bucket
 * keys and fine histogram buckets come from the core's own functions, through a lookup table.
 */
import { LATENCY_BUCKET_KEYS, lastDeliveryOf, latencyBucket, latencyBucketKey } from '@latchkey/core/store';
import { type SqlQueryable, tablesOf } from '@latchkey/store-postgres';
import { ATTEMPT_COLUMNS, asAttempt } from './attempt-row.js';

/** Largest latency the generator produces, in ms. */
const MAX_LATENCY = 9_999;
/** Attempt rows per INSERT statement. */
const CHUNK = 250_000;
const FAILURE_RATE = 0.02;

/** Where to seed: a connection without a statement timeout, the store's schema and a helper schema. */
export interface SeedTarget {
  db: SqlQueryable;
  schema: string;
  /** Holds the latency lookup table, the staging table and the merge function; dropped by the caller. */
  helper: string;
}

/** What the generated attempts are attached to, and the span of time they fall in. */
export interface SeedPlan {
  organizationId: string;
  webhookIds: string[];
  /** Attempts fall in [fromMs, toMs], both inclusive. */
  fromMs: number;
  toMs: number;
}

/** Creates the helper schema: latency lookup (from the core's functions) and the count-merging function. */
export async function prepareHelper({ db, helper }: SeedTarget): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS "${helper}" CASCADE`);
  await db.query(`CREATE SCHEMA "${helper}"`);
  await db.query(
    `CREATE TABLE "${helper}".latency (ms integer PRIMARY KEY, bucket_key text NOT NULL, fine text NOT NULL)`,
  );
  const ms = Array.from({ length: MAX_LATENCY + 1 }, (_, i) => i);
  await db.query(
    `INSERT INTO "${helper}".latency (ms, bucket_key, fine) SELECT * FROM unnest($1::int[], $2::text[], $3::text[])`,
    [ms, ms.map(latencyBucketKey), ms.map((m) => String(latencyBucket(m)))],
  );
  // Adds two JSON objects of counts key by key, as the repository's jsonb_set increments would.
  await db.query(
    `CREATE FUNCTION "${helper}".add_counts(a jsonb, b jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
       SELECT coalesce(jsonb_object_agg(key, total), '{}'::jsonb) FROM (
         SELECT key, sum(value::bigint) AS total
         FROM (SELECT * FROM jsonb_each_text(a) UNION ALL SELECT * FROM jsonb_each_text(b)) e
         GROUP BY key) s
     $$`,
  );
}

const frac = (i: string, alpha: number) => `(${i} * ${alpha}::float8 - floor(${i} * ${alpha}::float8))`;

/** One growth of the log: attempts `from`..`to` (inclusive), and where to report progress. */
export interface Growth {
  from: number;
  to: number;
  progress: (message: string) => void;
}

/** Inserts the growth's attempts in chunks, reporting each. */
async function insertAttempts(
  target: SeedTarget,
  plan: SeedPlan,
  { from, to, progress }: Growth,
): Promise<void> {
  const t = tablesOf(target.schema);
  const hex = (i: string) => `lpad(to_hex(${i}), 32, '0')`;
  const started = performance.now();
  for (let first = from; first <= to; first += CHUNK) {
    const last = Math.min(to, first + CHUNK - 1);
    await target.db.query(
      `INSERT INTO ${t.attempts} (${ATTEMPT_COLUMNS})
       SELECT 'att_' || ${hex('i')}, $1, ($2::text[])[(1 + i % $3)::int], 'dlv_' || ${hex('i')},
              'evt_' || ${hex('i / $3')}, 'push_applied', 1, at, NOT failed,
              CASE WHEN failed THEN 503 ELSE 200 END,
              CASE WHEN u < 0.85 THEN 20 + floor(u / 0.85 * 280)
                   WHEN u < 0.97 THEN 300 + floor((u - 0.85) / 0.12 * 2700)
                   ELSE 3000 + floor((u - 0.97) / 0.03 * 7000) END::int,
              CASE WHEN failed THEN jsonb_build_object(
                'at', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'code', 'http_status', 'status_code', 503, 'message', 'answered 503') END,
              CASE WHEN failed THEN at + interval '1 minute' END
       FROM (
         SELECT i,
                timestamptz 'epoch' + ($6::bigint + floor(${frac('i', 0.6180339887498949)} * $7::bigint)::bigint) * interval '1 millisecond' AS at,
                ${frac('i', 0.41421356237309515)} < $8::float8 AS failed,
                ${frac('i', 0.7320508075688772)} AS u
         FROM generate_series($4::bigint, $5::bigint) AS i
       ) g`,
      [
        plan.organizationId,
        plan.webhookIds,
        plan.webhookIds.length,
        first,
        last,
        plan.fromMs,
        plan.toMs - plan.fromMs + 1,
        FAILURE_RATE,
      ],
    );
    const done = last - from + 1;
    const rate = done / ((performance.now() - started) / 1000);
    progress(
      `  attempts ${last.toLocaleString('en-US')} of ${to.toLocaleString('en-US')} (${Math.round(rate).toLocaleString('en-US')} rows/s)`,
    );
  }
}

/** Derives the minute and hour rollups of the attempts after `position` and merges them in. */
async function rollUpAttempts(
  target: SeedTarget,
  afterPosition: number,
  progress: (message: string) => void,
): Promise<void> {
  const { db, helper } = target;
  const t = tablesOf(target.schema);
  const fine = `"${helper}".fine`;
  const b = LATENCY_BUCKET_KEYS.map((_, k) => `b${k}`);
  let started = performance.now();
  progress('  grouping the new attempts by webhook, minute and fine latency bucket…');
  await db.query(`DROP TABLE IF EXISTS ${fine}`);
  await db.query(
    `CREATE UNLOGGED TABLE ${fine} AS
     SELECT a.webhook_id, a.organization_id, date_trunc('minute', a.at, 'UTC') AS minute, l.fine,
            count(*) AS n, count(*) FILTER (WHERE a.succeeded) AS ok,
            ${LATENCY_BUCKET_KEYS.map((key, k) => `count(*) FILTER (WHERE l.bucket_key = '${key}') AS b${k}`).join(', ')}
     FROM ${t.attempts} a JOIN "${helper}".latency l ON l.ms = a.latency_ms
     WHERE a.position > ${Math.trunc(afterPosition)}
     GROUP BY 1, 2, 3, 4`,
  );
  progress(
    `  … ${((performance.now() - started) / 1000).toFixed(1)} s; merging into the minute and hour rollups…`,
  );
  started = performance.now();
  const sums = ['n', 'ok', ...b].map((c) => `sum(${c})::bigint`).join(', ');
  await db.query(
    `INSERT INTO ${t.rollups} AS r (webhook_id, unit, start, organization_id, attempted, succeeded, failed, buckets, histogram)
     SELECT webhook_id, unit, start, organization_id, sum(n)::int, sum(ok)::int, (sum(n) - sum(ok))::int,
            jsonb_build_object(${LATENCY_BUCKET_KEYS.map((key, k) => `'${key}', sum(b${k})::int`).join(', ')}),
            jsonb_object_agg(fine, n)
     FROM (
       SELECT webhook_id, organization_id, 'minute' AS unit, minute AS start, fine, n, ok, ${b.join(', ')} FROM ${fine}
       UNION ALL
       SELECT webhook_id, organization_id, 'hour', date_trunc('hour', minute, 'UTC'), fine, ${sums}
       FROM ${fine} GROUP BY webhook_id, organization_id, date_trunc('hour', minute, 'UTC'), fine
     ) x
     GROUP BY webhook_id, unit, start, organization_id
     ON CONFLICT (webhook_id, unit, start) DO UPDATE SET
       attempted = r.attempted + EXCLUDED.attempted,
       succeeded = r.succeeded + EXCLUDED.succeeded,
       failed = r.failed + EXCLUDED.failed,
       buckets = "${helper}".add_counts(r.buckets, EXCLUDED.buckets),
       histogram = "${helper}".add_counts(r.histogram, EXCLUDED.histogram)`,
  );
  await db.query(`DROP TABLE ${fine}`);
  progress(`  … ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Sets each webhook's `last_delivery` (its latest attempt) and `last_error` (its latest failure). */
async function updateWebhooks(target: SeedTarget, plan: SeedPlan): Promise<void> {
  const t = tablesOf(target.schema);
  const latest = async (id: string, failedOnly: boolean) => {
    const { rows } = await target.db.query<Record<string, unknown>>(
      `SELECT ${ATTEMPT_COLUMNS} FROM ${t.attempts} WHERE webhook_id = $1 ${failedOnly ? 'AND NOT succeeded' : ''}
       ORDER BY at DESC, position DESC LIMIT 1`,
      [id],
    );
    return rows[0] ? asAttempt(rows[0]) : null;
  };
  for (const id of plan.webhookIds) {
    const last = await latest(id, false);
    const failed = await latest(id, true);
    await target.db.query(
      `UPDATE ${t.webhooks} SET last_delivery = $2::jsonb, last_error = $3::jsonb WHERE id = $1`,
      [
        id,
        last ? JSON.stringify(lastDeliveryOf(last)) : null,
        failed?.error ? JSON.stringify(failed.error) : null,
      ],
    );
  }
}

/** Grows the log from `from - 1` to `to` attempts: rows, rollups, webhooks, then VACUUM ANALYZE. */
export async function growAttempts(target: SeedTarget, plan: SeedPlan, growth: Growth): Promise<void> {
  const t = tablesOf(target.schema);
  const { rows } = await target.db.query<{ p: unknown }>(
    `SELECT coalesce(max(position), 0) AS p FROM ${t.attempts}`,
  );
  const afterPosition = Number(rows[0]!.p);
  const { progress } = growth;
  await insertAttempts(target, plan, growth);
  await rollUpAttempts(target, afterPosition, progress);
  await updateWebhooks(target, plan);
  // record() keeps the running totals already taken; rows seeded past it make them stale, so they go
  // and are taken again, from the rollups, by the next read (as if they had never been taken).
  await target.db.query(`DELETE FROM ${t.totals}`);
  const started = performance.now();
  progress('  VACUUM ANALYZE of the attempts, rollups and webhooks…');
  for (const table of [t.attempts, t.rollups, t.totals, t.webhooks]) {
    await target.db.query(`VACUUM ANALYZE ${table}`);
  }
  progress(`  … ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
