/**
 * Claiming due deliveries on SQL, fairly (see `DeliveryRepository.claim`): one statement walks the
 * webhooks with pending deliveries (a skip scan of the due index, one probe each, however long a
 * backlog), reads each one's oldest due in the index's order up to what its share and limits
 * allow, lets organizations take turns, and leases the ones it takes (the only rows it locks),
 * reading what sending needs. It counts what it leased per webhook under its lease end (`leases`,
 * migration 19): a webhook's attempts in flight are its unexpired counts, and a lease rewrites no
 * index of the outbox.
 * Claims take turns on an advisory transaction lock, so the counts they read (live leases, claims
 * this second) are never raced by another worker; the lock ends with the claim's transaction.
 */
import {
  type ClaimedDelivery,
  type ClaimOptions,
  type WebhookClientCertificate,
  type WebhookHeader,
  webhookLimit,
} from '@latchkey/core/store';
import { sendDeferred } from '../driver.js';
import { json } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { DELIVERY_COLUMNS, toDelivery } from './delivery-rows.js';

const toClaimed = (r: Record<string, unknown>): ClaimedDelivery => ({
  delivery: toDelivery(r),
  webhook: {
    id: r['webhook_id'] as string,
    organization_id: r['organization_id'] as string,
    name: r['webhook_name'] as string,
    url: r['url'] as string,
    secret_sealed: r['secret_sealed'] as string,
    headers: (r['headers'] == null ? [] : json(r['headers'])) as WebhookHeader[],
    client_certificate: (r['client_certificate'] == null
      ? null
      : json(r['client_certificate'])) as WebhookClientCertificate | null,
    signature_scheme: r['signature_scheme'] as ClaimedDelivery['webhook']['signature_scheme'],
    previous_secret: (r['previous_secret'] == null
      ? null
      : json(r['previous_secret'])) as ClaimedDelivery['webhook']['previous_secret'],
  },
  eventJson: r['body'] as string,
  eventType: r['event_type'] as string,
});

/**
 * The claim. Parameters: $1 now, $2 limit, $3 lease end, $4 cap per webhook (null: none), $5 room
 * by webhook id, $6 limits by webhook id (the overrides, resolved), $7 default in-flight limit,
 * $8 default per-second limit.
 */
function claimSql(t: Tables): string {
  const rates = `${t.quoted}.webhook_claim_rates`;
  const limitOf = (field: string, fallback: string) =>
    `(CASE WHEN $6::jsonb ? w.id THEN (($6::jsonb -> w.id) ->> '${field}')::int ELSE ${fallback}::int END)`;
  return `WITH RECURSIVE hooks AS (
      (SELECT webhook_id FROM ${t.deliveries} WHERE state = 'pending' ORDER BY webhook_id LIMIT 1)
      UNION ALL
      SELECT (SELECT d.webhook_id FROM ${t.deliveries} d
              WHERE d.state = 'pending' AND d.webhook_id > h.webhook_id ORDER BY d.webhook_id LIMIT 1)
      FROM hooks h WHERE h.webhook_id IS NOT NULL
    ), limited AS (
      SELECT w.id, w.organization_id, ${limitOf('inFlight', '$7')} AS in_flight,
             ${limitOf('perSecond', '$8')} AS per_second
      -- A lookup per webhook by its key (LIMIT keeps the planner from hashing the whole table).
      FROM hooks h CROSS JOIN LATERAL (SELECT w.id, w.organization_id FROM ${t.webhooks} w
        WHERE w.id = h.webhook_id AND w.status = 'active' LIMIT 1) w
    ), allowed AS (
      SELECT l.id, l.organization_id, greatest(0, least(
        ($5::jsonb ->> l.id)::int, $4::int, $2::int,
        CASE WHEN l.in_flight IS NOT NULL THEN l.in_flight - (SELECT coalesce(sum(x.leased), 0)::int
          FROM ${t.leases} x WHERE x.webhook_id = l.id AND x.lease_until > $1) END,
        CASE WHEN l.per_second IS NOT NULL THEN l.per_second - coalesce((SELECT r.claimed FROM ${rates} r
          WHERE r.webhook_id = l.id AND r.second = date_trunc('second', $1::timestamptz)), 0) END
      )) AS most, l.per_second IS NOT NULL AS rated
      FROM limited l
    ), heads AS (
      -- Each webhook's first due, read in index order up to its share. Not locked here: claims
      -- take turns (the advisory lock), and only the rows taken are locked, by the lease below.
      SELECT c.id, a.id AS webhook_id, a.organization_id, c.next_attempt_at
      FROM allowed a CROSS JOIN LATERAL (
        SELECT d.id, d.next_attempt_at FROM ${t.deliveries} d
        WHERE d.webhook_id = a.id AND d.state = 'pending' AND d.next_attempt_at <= $1
          AND (d.lease_until IS NULL OR d.lease_until <= $1)
        ORDER BY d.next_attempt_at, d.id LIMIT a.most
      ) c WHERE a.most > 0
    ), ranked AS (
      SELECT id, organization_id, next_attempt_at,
             row_number() OVER (PARTITION BY webhook_id ORDER BY next_attempt_at, id) AS nth
      FROM heads
    ), turns AS (
      SELECT id, next_attempt_at,
             row_number() OVER (PARTITION BY organization_id ORDER BY nth, next_attempt_at, id) AS turn
      FROM ranked
    ), due AS (
      SELECT id, turn FROM turns ORDER BY turn, next_attempt_at, id LIMIT $2
    ), leased AS (
      UPDATE ${t.deliveries} d SET lease_until = $3
      FROM due, ${t.webhooks} w, ${t.events} e
      WHERE d.id = due.id AND w.id = d.webhook_id AND e.organization_id = d.organization_id AND e.seq = d.event_seq
        -- Checked again on the row as it is now: a flush that held it may have recorded it meanwhile.
        AND d.state = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= $1)
      RETURNING due.turn, ${DELIVERY_COLUMNS.split(', ')
        .map((c) => `d.${c}`)
        .join(
          ', ',
        )}, w.name AS webhook_name, w.url, w.secret_sealed, w.headers, w.client_certificate, w.signature_scheme, w.previous_secret, e.body, e.type AS event_type
    ), leases_counted AS (
      INSERT INTO ${t.leases} AS c (webhook_id, lease_until, leased)
      SELECT webhook_id, $3, count(*)::int FROM leased GROUP BY webhook_id
      ON CONFLICT (webhook_id, lease_until) DO UPDATE SET leased = c.leased + excluded.leased
    ), leases_swept AS (
      -- Counts all recorded or given back, and those of leases that ended long ago (a worker that
      -- died holding them): never ones a flush may still be taking off.
      DELETE FROM ${t.leases} x WHERE x.webhook_id = ANY (ARRAY(SELECT id FROM limited))
        AND (x.leased <= 0 OR x.lease_until <= $1::timestamptz - interval '1 hour')
    ), counted AS (
      INSERT INTO ${rates} AS r (webhook_id, second, claimed)
      SELECT l.webhook_id, date_trunc('second', $1::timestamptz), count(*)
      FROM leased l JOIN allowed a ON a.id = l.webhook_id AND a.rated
      GROUP BY l.webhook_id
      ON CONFLICT (webhook_id) DO UPDATE SET
        claimed = CASE WHEN r.second = excluded.second THEN r.claimed + excluded.claimed ELSE excluded.claimed END,
        second = excluded.second
    )
    SELECT * FROM leased ORDER BY turn, next_attempt_at, id`;
}

/** The claim's parameters, the overrides resolved so SQL reads one object per limited webhook. */
function claimParams(options: ClaimOptions): unknown[] {
  const { limits } = options;
  const byWebhook: Record<string, unknown> = {};
  for (const id of Object.keys(limits?.byWebhook ?? {})) byWebhook[id] = webhookLimit(limits, id);
  return [
    options.now,
    options.limit,
    options.leaseUntil,
    options.perWebhook ?? null,
    JSON.stringify(options.room ?? {}),
    JSON.stringify(byWebhook),
    limits?.inFlight ?? null,
    limits?.perSecond ?? null,
  ];
}

/** The claims' advisory lock, keyed by schema, so stores in other schemas never wait on it. */
const LOCK_SQL = 'SELECT pg_advisory_xact_lock(hashtext($1)) AS locked';

/**
 * See `DeliveryRepository.claim`. Claims take turns: each waits for the lock, then reads, in a
 * snapshot taken after the previous claim committed, the leases and counts it left; so the limits
 * hold across workers, and a claim never wants rows another one is still leasing (with the
 * per-webhook caps, concurrent claims would all want the same heads and come back short).
 */
export async function claimDue(db: Runner, t: Tables, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  return db.atomic(async (q) => {
    // On a driver that defers, the lock goes in the claim's round trip: the claim still starts, and
    // takes its snapshot, only once the lock is held. The claim runs on its generic plan: custom
    // plans, made at each of its first executions on a connection, took three times as long.
    await sendDeferred(q, LOCK_SQL, [`${t.schema}.delivery_claim`], { genericPlan: true });
    return (await q.query(claimSql(t), claimParams(options))).rows.map(toClaimed);
  });
}

/** The CTE taking `ended` (webhook_id, lease, n: leases recorded or given back) off the lease counts. */
export function leasesEndedCte(t: Tables, ended: string): string {
  return `leases_ended AS (UPDATE ${t.leases} c SET leased = c.leased - e.n
     FROM (${ended}) e WHERE c.webhook_id = e.webhook_id AND c.lease_until = e.lease)`;
}

/** See `DeliveryRepository.release`: one statement, only the leases still as claimed. */
export async function releaseClaims(
  db: Runner,
  t: Tables,
  claims: readonly { id: string; lease: string | null }[],
): Promise<number> {
  if (claims.length === 0) return 0;
  const { rows } = await db.query<{ released: number }>(
    `WITH released AS (UPDATE ${t.deliveries} d SET lease_until = NULL
       FROM unnest($1::text[], $2::timestamptz[]) AS m(id, lease)
       WHERE d.id = m.id AND d.lease_until = m.lease
       RETURNING d.webhook_id, m.lease),
     ${leasesEndedCte(t, 'SELECT webhook_id, lease, count(*)::int AS n FROM released GROUP BY webhook_id, lease')}
     SELECT count(*)::int AS released FROM released`,
    [claims.map((c) => c.id), claims.map((c) => c.lease)],
  );
  return Number(rows[0]?.released ?? 0);
}
