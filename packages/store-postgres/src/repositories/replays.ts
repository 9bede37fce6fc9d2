/**
 * Replays of the log to a webhook on SQL: a cursor row (`webhook_replays`) over the events a replay
 * covers, moved on a batch at a time by `advanceReplays`, so a replay of a long history never
 * queues it all in one statement and the live deliveries queued meanwhile go first. The events a
 * batch takes are the outbox rule's (core's `outboxFilterSql`, the webhook's filter as it then is).
 */
import {
  outboxFilterSql,
  type ReplayPace,
  type ReplayRange,
  UNQUEUED_EVENT_TYPES,
} from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
import type { Runner } from '../runner.js';
import { deliveriesChannel, type Tables } from '../schema-name.js';
import { NEW_ID } from './outbox.js';

/** A cursor row as a batch reads it, with its webhook's filter. */
interface Cursor {
  webhook_id: string;
  organization_id: string;
  since: string;
  until: string | null;
  next_seq: string;
  last_seq: string;
  event_types: string[] | null;
}

/**
 * The events of a range owed to the webhook and not held by it, in seq order: $1 organization,
 * $2 webhook, $3 since, $4 until (or null), $5 first seq, $6 last seq, $7 never-queued types, $8 the
 * filter's LIKE patterns.
 */
const owed = (t: Tables) => `
  SELECT e.id, e.seq FROM ${t.events} e
  WHERE e.organization_id = $1 AND e.seq BETWEEN $5 AND $6 AND e.occurred_at >= $3
    AND ($4::timestamptz IS NULL OR e.occurred_at < $4) AND e.type <> ALL($7::text[])
    AND e.type LIKE ANY($8::text[])
    AND NOT EXISTS (SELECT 1 FROM ${t.deliveries} d WHERE d.webhook_id = $2 AND d.event_id = e.id)
  ORDER BY e.seq`;

const owedParams = (c: Omit<Cursor, 'next_seq'>, from: string | number) => [
  c.organization_id,
  c.webhook_id,
  c.since,
  c.until,
  from,
  c.last_seq,
  UNQUEUED_EVENT_TYPES,
  outboxFilterSql.like(c.event_types ?? []),
];

/** Webhooks with nothing due at $1: an active one whose due queue is empty may take a batch. */
const ready = (t: Tables) => `w.status = 'active' AND NOT EXISTS (
    SELECT 1 FROM ${t.deliveries} d WHERE d.webhook_id = r.webhook_id AND d.state = 'pending' AND d.next_attempt_at <= $1)`;

/** Queues the next batch of one locked cursor (ready at `at`), moves it or ends it; how many it queued. */
async function advanceOne(q: SqlQueryable, t: Tables, c: Cursor, at: string, batch: number): Promise<number> {
  const params = owedParams(c, c.next_seq);
  const { rows } = await q.query<{ n: number; last: string | null }>(
    `WITH picked AS (${owed(t)} LIMIT $9),
     queued AS (INSERT INTO ${t.deliveries} (id, organization_id, webhook_id, event_id, event_seq, state, next_attempt_at, created_at)
       SELECT ${NEW_ID}, $1, $2, id, seq, 'pending', $10, $10 FROM picked RETURNING event_seq)
     SELECT count(*)::int AS n, max(event_seq)::text AS last FROM queued`,
    [...params, batch, at],
  );
  const { n, last } = rows[0]!;
  if (n < batch || BigInt(last!) >= BigInt(c.last_seq)) {
    await q.query(`DELETE FROM ${t.replays} WHERE webhook_id = $1`, [c.webhook_id]);
  } else {
    await q.query(`UPDATE ${t.replays} SET next_seq = $2 WHERE webhook_id = $1`, [
      c.webhook_id,
      (BigInt(last!) + 1n).toString(),
    ]);
  }
  if (n > 0) await q.query('SELECT pg_notify($1, $2)', [deliveriesChannel(t.schema), '']);
  return n;
}

const CURSOR = `r.webhook_id, r.organization_id, r.since, r.until, r.next_seq::text, r.last_seq::text, w.event_types`;

/** See `DeliveryRepository.replay`. */
export function startReplay(
  db: Runner,
  t: Tables,
  organizationId: string,
  webhookId: string,
  range: ReplayRange,
  at: string,
  pace: ReplayPace,
): Promise<number | 'limit' | 'busy'> {
  return db.atomic(async (q) => {
    // The webhook's row locked, so its filter and state hold, and two replays of it take turns.
    const { rows } = await q.query<{ status: string; event_types: string[] | null; busy: boolean }>(
      `SELECT status, event_types, EXISTS (SELECT 1 FROM ${t.replays} WHERE webhook_id = $2) AS busy
       FROM ${t.webhooks} WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, webhookId],
    );
    const webhook = rows[0];
    if (!webhook || webhook.status === 'disabled') return 0;
    if (webhook.busy) return 'busy';
    const head = await q.query<{ seq: string | null }>(
      `SELECT max(seq)::text AS seq FROM ${t.events} WHERE organization_id = $1`,
      [organizationId],
    );
    const c = {
      webhook_id: webhookId,
      organization_id: organizationId,
      since: range.since,
      until: range.until ?? null,
      last_seq: head.rows[0]?.seq ?? '0',
      event_types: webhook.event_types,
    };
    // Counted no further than one past the bound, so a refusal costs what the bound allows.
    const counted = await q.query<{ n: number; first: string | null }>(
      `SELECT count(*)::int AS n, min(seq)::text AS first FROM (${owed(t)} LIMIT $9) AS x`,
      [...owedParams(c, 0), pace.maxEvents + 1],
    );
    const { n, first } = counted.rows[0]!;
    if (n > pace.maxEvents) return 'limit';
    if (n === 0) return 0;
    await q.query(
      `INSERT INTO ${t.replays} (webhook_id, organization_id, since, until, next_seq, last_seq, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [webhookId, organizationId, c.since, c.until, first, c.last_seq, at],
    );
    // The first batch at once, whatever is due; the next ones once nothing is.
    if (webhook.status === 'active') {
      await advanceOne(q, t, { ...c, next_seq: first! }, at, pace.batch);
    }
    return n;
  });
}

/** See `DeliveryRepository.advanceReplays`: the cursors no other advance holds, each in its own step. */
export async function advanceReplays(db: Runner, t: Tables, at: string, batch: number): Promise<number> {
  // Replays of webhooks disabled meanwhile end (their webhook is owed nothing).
  await db.query(
    `DELETE FROM ${t.replays} r USING ${t.webhooks} w WHERE w.id = r.webhook_id AND w.status = 'disabled'`,
  );
  const { rows } = await db.query<{ webhook_id: string }>(
    `SELECT r.webhook_id FROM ${t.replays} r JOIN ${t.webhooks} w ON w.id = r.webhook_id
     WHERE ${ready(t)} ORDER BY r.created_at, r.webhook_id`,
    [at],
  );
  let queued = 0;
  for (const { webhook_id } of rows) {
    queued += await db.atomic(async (q) => {
      const locked = await q.query<Cursor>(
        `SELECT ${CURSOR} FROM ${t.replays} r JOIN ${t.webhooks} w ON w.id = r.webhook_id
         WHERE r.webhook_id = $2 AND ${ready(t)} FOR UPDATE OF r SKIP LOCKED`,
        [at, webhook_id],
      );
      return locked.rows[0] ? advanceOne(q, t, locked.rows[0], at, batch) : 0;
    });
  }
  return queued;
}
