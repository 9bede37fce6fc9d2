/**
 * The audit webhook outbox on SQL. Workers on any number of processes claim due deliveries with
 * `FOR UPDATE SKIP LOCKED` and a lease; an attempt is recorded in one transaction (attempt row,
 * rollups upserted with row locks, webhook health, delivery state), refused if the lease was lost.
 */
import {
  type AttemptRecord,
  type ClaimedDelivery,
  type DeliveryAttempt,
  type DeliveryRepository,
  emptyRollup,
  floorTo,
  HOUR_MS,
  lastDeliveryOf,
  latencyBucket,
  latencyBucketKey,
  MINUTE_MS,
  mergeRollup,
  type Rollup,
  recordedLatency,
} from '@latchkey/core';
import type { SqlQueryable } from '../driver.js';
import { json } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { organizationIdsQuery } from './audit-webhooks.js';
import { ATTEMPT_COLUMNS, DELIVERY_COLUMNS, toAttempt, toDelivery } from './delivery-rows.js';
import { addToLaterTotals, takeAllTotals, totalsBefore } from './running-totals.js';

/** Adds one attempt to its webhook's minute and hour rollups, under the rows' locks (no lost update). */
async function rollUp(q: SqlQueryable, t: Tables, attempt: DeliveryAttempt): Promise<void> {
  const at = Date.parse(attempt.at);
  const ms = recordedLatency(attempt.latency_ms);
  const ok = attempt.succeeded ? 1 : 0;
  const bucket = latencyBucketKey(ms);
  const fine = String(latencyBucket(ms));
  const one = emptyRollup();
  one.buckets[bucket] = 1;
  await q.query(
    `INSERT INTO ${t.rollups} AS r (webhook_id, unit, start, organization_id, attempted, succeeded, failed, buckets, histogram)
     VALUES ($1, 'minute', $2, $4, 1, $5, $6, $7::jsonb, $8::jsonb), ($1, 'hour', $3, $4, 1, $5, $6, $7::jsonb, $8::jsonb)
     ON CONFLICT (webhook_id, unit, start) DO UPDATE SET
       attempted = r.attempted + 1,
       succeeded = r.succeeded + EXCLUDED.succeeded,
       failed = r.failed + EXCLUDED.failed,
       buckets = jsonb_set(r.buckets, ARRAY[$9::text], to_jsonb(COALESCE((r.buckets ->> $9::text)::int, 0) + 1)),
       histogram = jsonb_set(r.histogram, ARRAY[$10::text], to_jsonb(COALESCE((r.histogram ->> $10::text)::int, 0) + 1))`,
    [
      attempt.webhook_id,
      new Date(floorTo(at, MINUTE_MS)).toISOString(),
      new Date(floorTo(at, HOUR_MS)).toISOString(),
      attempt.organization_id,
      ok,
      1 - ok,
      JSON.stringify(one.buckets),
      JSON.stringify({ [fine]: 1 }),
      bucket,
      fine,
    ],
  );
}

/** Delivery outbox, attempt log and rollups on SQL. */
export function sqlDeliveries(db: Runner, t: Tables): DeliveryRepository {
  return {
    async claim({ now, limit, leaseUntil }) {
      const { rows } = await db.query(
        `WITH due AS (
           SELECT d.id FROM ${t.deliveries} d JOIN ${t.webhooks} w ON w.id = d.webhook_id
           WHERE d.state = 'pending' AND d.next_attempt_at <= $1
             AND (d.lease_until IS NULL OR d.lease_until <= $1) AND w.status = 'active'
           ORDER BY d.next_attempt_at
           LIMIT $2
           FOR UPDATE OF d SKIP LOCKED
         )
         UPDATE ${t.deliveries} d SET lease_until = $3
         FROM due, ${t.webhooks} w, ${t.events} e
         WHERE d.id = due.id AND w.id = d.webhook_id AND e.organization_id = d.organization_id AND e.seq = d.event_seq
         RETURNING ${DELIVERY_COLUMNS.split(', ')
           .map((c) => `d.${c}`)
           .join(', ')}, w.name AS webhook_name, w.url, w.secret_sealed, e.body, e.type AS event_type`,
        [now, limit, leaseUntil],
      );
      return rows
        .map(
          (r): ClaimedDelivery => ({
            delivery: toDelivery(r),
            webhook: {
              id: r['webhook_id'] as string,
              organization_id: r['organization_id'] as string,
              name: r['webhook_name'] as string,
              url: r['url'] as string,
              secret_sealed: r['secret_sealed'] as string,
            },
            eventJson: r['body'] as string,
            eventType: r['event_type'] as string,
          }),
        )
        .sort((a, b) => a.delivery.next_attempt_at.localeCompare(b.delivery.next_attempt_at));
    },

    record(record: AttemptRecord, lease: string | null) {
      const { attempt, outcome } = record;
      return db.atomic(async (q) => {
        if (outcome !== 'test') {
          const { rows } = await q.query(
            `SELECT id FROM ${t.deliveries} WHERE id = $1 AND lease_until = $2 FOR UPDATE`,
            [attempt.delivery_id, lease],
          );
          if (rows.length === 0) return false;
        }
        const { rowCount } = await q.query(
          `UPDATE ${t.webhooks} SET last_delivery = $3::jsonb, last_error = COALESCE($4::jsonb, last_error),
             consecutive_failures = CASE $5::text WHEN 'delivered' THEN 0 WHEN 'test' THEN consecutive_failures ELSE consecutive_failures + 1 END,
             status = CASE WHEN $5::text = 'dead_letter' THEN 'dead_letter' ELSE status END
           WHERE organization_id = $1 AND id = $2`,
          [
            attempt.organization_id,
            attempt.webhook_id,
            JSON.stringify(lastDeliveryOf(attempt)),
            attempt.error === null ? null : JSON.stringify(attempt.error),
            outcome,
          ],
        );
        if (rowCount === 0) return false;
        await q.query(
          `INSERT INTO ${t.attempts} (${ATTEMPT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13)`,
          [
            attempt.id,
            attempt.organization_id,
            attempt.webhook_id,
            attempt.delivery_id,
            attempt.event_id,
            attempt.event_type,
            attempt.attempt,
            attempt.at,
            attempt.succeeded,
            attempt.status_code,
            recordedLatency(attempt.latency_ms),
            attempt.error === null ? null : JSON.stringify(attempt.error),
            attempt.next_attempt_at,
          ],
        );
        await rollUp(q, t, attempt);
        await addToLaterTotals(q, t, attempt);
        if (outcome === 'delivered') {
          await q.query(`DELETE FROM ${t.deliveries} WHERE id = $1`, [attempt.delivery_id]);
        } else if (outcome === 'retry') {
          await q.query(
            `UPDATE ${t.deliveries} SET attempts = attempts + 1, next_attempt_at = $2, lease_until = NULL WHERE id = $1`,
            [attempt.delivery_id, attempt.next_attempt_at ?? attempt.at],
          );
        } else if (outcome === 'dead_letter') {
          await q.query(
            `UPDATE ${t.deliveries} SET attempts = attempts + 1, state = 'held', lease_until = NULL WHERE id = $1`,
            [attempt.delivery_id],
          );
          await q.query(
            `UPDATE ${t.deliveries} SET state = 'held' WHERE webhook_id = $1 AND state = 'pending'`,
            [attempt.webhook_id],
          );
        }
        return true;
      });
    },

    async attempts(organizationId, webhookId, { limit, beforeId }) {
      const before =
        beforeId === undefined
          ? ''
          : `AND position < (SELECT position FROM ${t.attempts} WHERE id = $4 AND webhook_id = $2)`;
      const params: unknown[] = [organizationId, webhookId, limit + 1];
      if (beforeId !== undefined) params.push(beforeId);
      const { rows } = await db.query(
        `SELECT ${ATTEMPT_COLUMNS} FROM ${t.attempts}
         WHERE organization_id = $1 AND webhook_id = $2 ${before}
         ORDER BY position DESC LIMIT $3`,
        params,
      );
      const page = rows.slice(0, limit).map(toAttempt);
      return { attempts: page, next: rows.length > limit ? page[page.length - 1]!.id : null };
    },

    async replay(organizationId, webhookId, since, at) {
      const { rowCount } = await db.query(
        `INSERT INTO ${t.deliveries} (id, organization_id, webhook_id, event_id, event_seq, state, next_attempt_at, created_at)
         SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), $1, w.id, e.id, e.seq,
                CASE WHEN w.status = 'active' THEN 'pending' ELSE 'held' END, $4, $4
         FROM ${t.events} e JOIN ${t.webhooks} w ON w.id = $2 AND w.organization_id = $1 AND w.status <> 'disabled'
         WHERE e.organization_id = $1 AND e.occurred_at >= $3 AND e.type <> 'webhook_test'
           AND NOT EXISTS (SELECT 1 FROM ${t.deliveries} d WHERE d.webhook_id = $2 AND d.event_id = e.id)
         ORDER BY e.seq`,
        [organizationId, webhookId, since, at],
      );
      return rowCount;
    },

    async minuteRollups(organizationId, ranges) {
      if (ranges.length === 0) return new Map();
      const params: unknown[] = [organizationId];
      const minutes = ranges
        .map((range) => {
          params.push(range.from, range.to);
          return `(start >= $${params.length - 1} AND start < $${params.length})`;
        })
        .join(' OR ');
      const { rows } = await db.query(
        `SELECT webhook_id, attempted, succeeded, failed, buckets, histogram FROM ${t.rollups}
         WHERE organization_id = $1 AND unit = 'minute' AND (${minutes})`,
        params,
      );
      const merged = new Map<string, Rollup>();
      for (const r of rows) {
        const id = r['webhook_id'] as string;
        const total = merged.get(id) ?? emptyRollup();
        mergeRollup(total, {
          attempted: Number(r['attempted']),
          succeeded: Number(r['succeeded']),
          failed: Number(r['failed']),
          buckets: json(r['buckets']),
          histogram: json(r['histogram']),
        });
        merged.set(id, total);
      }
      return merged;
    },

    totalsBefore(organizationId, boundaries) {
      return totalsBefore(db, t, organizationId, boundaries);
    },

    async pruneAttempts(before, batch) {
      const { rowCount } = await db.query(
        `DELETE FROM ${t.attempts} WHERE position IN (
           SELECT position FROM ${t.attempts} WHERE at < $1 ORDER BY at LIMIT $2)`,
        [before, batch],
      );
      return rowCount;
    },

    async pruneRollups(before) {
      // The totals at the cutoff first, one organization at a time (each locks only its own
      // webhooks, briefly): later totals are taken from them, not from the rollups deleted next.
      const { rows } = await db.query<{ organization_id: string }>(organizationIdsQuery(t));
      for (const { organization_id } of rows) {
        await db.atomic((q) => takeAllTotals(q, t, organization_id, [before]));
      }
      const rollups = await db.query(`DELETE FROM ${t.rollups} WHERE start < $1`, [before]);
      const totals = await db.query(`DELETE FROM ${t.totals} WHERE boundary < $1`, [before]);
      return rollups.rowCount + totals.rowCount;
    },

    async count(organizationId, webhookId, state) {
      const { rows } = await db.query<{ n: unknown }>(
        `SELECT count(*) AS n FROM ${t.deliveries} WHERE organization_id = $1 AND webhook_id = $2 AND state = $3`,
        [organizationId, webhookId, state],
      );
      return Number(rows[0]!.n);
    },
  };
}
