/**
 * Shows the seeding is faithful, two ways. Against the recording path: every seeded attempt is
 * recorded again, in time order, through the store's own `deliveries.record()` into a schema of its
 * own, and the rollup rows, attempt rows and webhooks' last delivery and error must be identical.
 * Against the attempts: the figures the metrics route answers for 24h, 7d and 30d must equal a
 * brute-force count over the attempts table (percentiles: within the histogram's 0.4 %). And what
 * the timed query reads, counted by SQL.
 */
import {
  floorTo,
  LATENCY_BUCKET_KEYS,
  type MetricsReport,
  type MetricsWindow,
  MINUTE_MS,
  windowCover,
  windowStart,
} from '@latchkey/core/store';
import { type PostgresStore, type SqlQueryable, tablesOf } from '@latchkey/store-postgres';
import { ATTEMPT_COLUMNS, asAttempt } from './attempt-row.js';

const ROLLUP_COLUMNS =
  'webhook_id, unit, start, organization_id, attempted, succeeded, failed, buckets, histogram';

/** Rows of `a` not in `b`, rows of `b` not in `a` (as multisets), and how many rows `b` has. */
async function difference(db: SqlQueryable, a: string, b: string, columns: string) {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT (SELECT count(*) FROM (SELECT ${columns} FROM ${a} EXCEPT ALL SELECT ${columns} FROM ${b}) x) AS only_a,
            (SELECT count(*) FROM (SELECT ${columns} FROM ${b} EXCEPT ALL SELECT ${columns} FROM ${a}) x) AS only_b,
            (SELECT count(*) FROM ${b}) AS rows`,
  );
  const r = rows[0]!;
  return { onlyA: Number(r['only_a']), onlyB: Number(r['only_b']), rows: Number(r['rows']) };
}

/**
 * Records the attempts of `schema` again through `reference.deliveries.record()` (as `test`
 * outcomes: no delivery to lease, the same attempt row and rollups) into the empty store
 * `reference`, after copying the organizations and webhooks, and compares the tables.
 */
export async function compareWithRecorded(
  db: SqlQueryable,
  schema: string,
  reference: PostgresStore,
): Promise<{ attempts: number; rollups: number }> {
  const t = tablesOf(schema);
  const r = tablesOf(reference.schema);
  await db.query(`INSERT INTO ${r.organizations} SELECT * FROM ${t.organizations}`);
  await db.query(`INSERT INTO ${r.webhooks} SELECT * FROM ${t.webhooks}`);
  await db.query(`UPDATE ${r.webhooks} SET last_delivery = NULL, last_error = NULL`);
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${ATTEMPT_COLUMNS} FROM ${t.attempts} ORDER BY at, position`,
  );
  for (const row of rows) {
    if (!(await reference.deliveries.record({ attempt: asAttempt(row), outcome: 'test' }, null)))
      throw new Error(`record() refused attempt ${String(row['id'])}`);
  }
  const problems: string[] = [];
  const rollups = await difference(db, t.rollups, r.rollups, ROLLUP_COLUMNS);
  const attempts = await difference(db, t.attempts, r.attempts, ATTEMPT_COLUMNS);
  const webhooks = await difference(db, t.webhooks, r.webhooks, 'id, last_delivery, last_error');
  for (const [name, d] of Object.entries({ rollups, attempts, webhooks })) {
    if (d.onlyA + d.onlyB > 0)
      problems.push(`${name}: ${d.onlyA} rows only as seeded, ${d.onlyB} only as recorded by record()`);
  }
  if (problems.length > 0) throw new Error(`seeding differs from record():\n${problems.join('\n')}`);
  return { attempts: attempts.rows, rollups: rollups.rows };
}

interface Exact {
  attempted: number;
  succeeded: number;
  failed: number;
  buckets: number[];
  percentiles: number[];
}

/** The window's figures per webhook, counted over the attempts table. */
async function bruteForce(
  db: SqlQueryable,
  schema: string,
  organizationId: string,
  from: number,
  to: number,
): Promise<Map<string, Exact>> {
  const bounds = [100, 300, 1_000, 3_000];
  const buckets = LATENCY_BUCKET_KEYS.map((_, k) => {
    const low = k === 0 ? '' : `latency_ms > ${bounds[k - 1]}`;
    const high = k === bounds.length ? '' : `latency_ms <= ${bounds[k]}`;
    return `count(*) FILTER (WHERE ${[low, high].filter(Boolean).join(' AND ')}) AS b${k}`;
  });
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT webhook_id, count(*) AS attempted, count(*) FILTER (WHERE succeeded) AS succeeded,
            count(*) FILTER (WHERE NOT succeeded) AS failed, ${buckets.join(', ')},
            ${[0.5, 0.95, 0.99].map((p, k) => `percentile_disc(${p}) WITHIN GROUP (ORDER BY latency_ms) AS p${k}`).join(', ')}
     FROM ${tablesOf(schema).attempts}
     WHERE organization_id = $1 AND at >= $2 AND at < $3
     GROUP BY webhook_id`,
    [organizationId, new Date(from).toISOString(), new Date(to).toISOString()],
  );
  return new Map(
    rows.map((r) => [
      r['webhook_id'] as string,
      {
        attempted: Number(r['attempted']),
        succeeded: Number(r['succeeded']),
        failed: Number(r['failed']),
        buckets: LATENCY_BUCKET_KEYS.map((_, k) => Number(r[`b${k}`])),
        percentiles: [0, 1, 2].map((k) => Number(r[`p${k}`])),
      },
    ]),
  );
}

/**
 * Compares the route's answer for each window with the brute-force figures; returns the attempts
 * counted per window, or throws naming every difference.
 */
export async function compareWithAttempts(
  db: SqlQueryable,
  schema: string,
  organizationId: string,
  nowMs: number,
  report: (window: MetricsWindow) => Promise<MetricsReport>,
): Promise<Record<MetricsWindow, number>> {
  const counted = {} as Record<MetricsWindow, number>;
  const problems: string[] = [];
  for (const window of ['24h', '7d', '30d'] as const) {
    const answer = await report(window);
    const exact = await bruteForce(
      db,
      schema,
      organizationId,
      windowStart(nowMs, window),
      floorTo(nowMs, MINUTE_MS) + MINUTE_MS,
    );
    let total = 0;
    for (const hook of answer.webhooks) {
      const e = exact.get(hook.id) ?? {
        attempted: 0,
        succeeded: 0,
        failed: 0,
        buckets: [0, 0, 0, 0, 0],
        percentiles: [0, 0, 0],
      };
      total += e.attempted;
      const got = [
        hook.attempted,
        hook.succeeded,
        hook.failed,
        ...LATENCY_BUCKET_KEYS.map((k) => hook.latency_buckets[k]),
      ];
      const want = [e.attempted, e.succeeded, e.failed, ...e.buckets];
      if (got.join() !== want.join())
        problems.push(
          `${window} ${hook.id}: counts ${got.join('/')} from the route, ${want.join('/')} counted`,
        );
      const route = [hook.latency.p50_ms, hook.latency.p95_ms, hook.latency.p99_ms];
      route.forEach((value, k) => {
        const want = e.percentiles[k]!;
        if (Math.abs(value - want) > want * 0.004 + 0.5)
          problems.push(
            `${window} ${hook.id}: percentile ${['p50', 'p95', 'p99'][k]} ${value} ms, exact ${want} ms`,
          );
      });
    }
    if (exact.size > answer.webhooks.length)
      problems.push(`${window}: attempts of webhooks the route does not list`);
    if (answer.summary.attempted !== total)
      problems.push(`${window}: summary ${answer.summary.attempted} attempted, ${total} counted`);
    counted[window] = total;
  }
  if (problems.length > 0)
    throw new Error(`the route's figures differ from the attempts:\n${problems.join('\n')}`);
  return counted;
}

/**
 * What the 30d query at `nowMs` reads: the current minute's rollups and two running totals per
 * webhook, and the JSON text of their histograms; and what is there: the organization's
 * rollup rows and the attempt rows.
 */
export async function coverRows(db: SqlQueryable, schema: string, organizationId: string, nowMs: number) {
  const cover = windowCover(nowMs, '30d');
  const iso = (ms: number) => new Date(ms).toISOString();
  const params: unknown[] = [organizationId, iso(cover.totals.from), iso(cover.totals.to)];
  const minutes = cover.minutes.map((r) => {
    params.push(iso(r.from), iso(r.to));
    return `(start >= $${params.length - 1} AND start < $${params.length})`;
  });
  const read = `unit = 'minute' AND (${minutes.join(' OR ') || 'FALSE'})`;
  const t = tablesOf(schema);
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT count(*) FILTER (WHERE ${read}) + (SELECT count(*) FROM ${t.totals} WHERE organization_id = $1 AND boundary IN ($2, $3)) AS read,
            coalesce(sum(octet_length(histogram::text)) FILTER (WHERE ${read}), 0)
              + (SELECT coalesce(sum(octet_length(histogram::text)), 0) FROM ${t.totals} WHERE organization_id = $1 AND boundary IN ($2, $3)) AS histogram_bytes,
            count(*) AS present,
            (SELECT count(*) FROM ${t.attempts}) AS attempts
     FROM ${t.rollups} WHERE organization_id = $1`,
    params,
  );
  const r = rows[0]!;
  return {
    rowsRead: Number(r['read']),
    rowsPresent: Number(r['present']),
    histogramKb: Number(r['histogram_bytes']) / 1024,
    attemptRows: Number(r['attempts']),
  };
}
