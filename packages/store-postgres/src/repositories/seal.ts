/**
 * The sequencer on SQL: what a seal writes. It takes the organization's pending events
 * (`activity_pending_events`, in `n` order) as read with the chain head, seals them by core's rule
 * (`sealBatch`) and, in one statement, moves the chain head and the tree's frontier if the head is
 * still the one read (or locked) and, joined to that move, stores the events, queues their
 * deliveries by the outbox rule (`outboxTable` per event, as `queueStatement` does for one), stores
 * the tree's new nodes and deletes the pending rows.
 */
import {
  type ActivityDraft,
  type ActivityEvent,
  type ChainHead,
  outboxFilterSql,
  outboxTable,
  sealBatch,
  type TreeState,
} from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
import { int } from '../rows.js';
import type { Tables } from '../schema-name.js';
import { eventColumns } from './event-columns.js';
import { NEW_ID } from './outbox.js';
import { treeHeadSet, treeNodesStatement, treeParams } from './tree.js';

/** The chain as a seal or an append finds it under the lock. */
export interface LockedChain {
  head: ChainHead | null;
  tree: TreeState;
}

/**
 * The seal's one statement. It writes only when the chain head still is what the seal was computed
 * after (`seq` $22, tree size $23 and hash $24; always so under the head's lock) and every event it
 * seals is still pending (rows $15): the head's move is the gate every other write joins, so a seal
 * computed from a head another seal moved meanwhile (or a restore replaced, even at the same
 * length), or naming an event sealed already, writes nothing and answers `moved` false.
 */
function sealStatement(t: Tables): string {
  const moved = 'EXISTS (SELECT 1 FROM moved)';
  // The pending rows, found one by one by their key: a scan of the organization's part of the
  // index would walk every dead entry the churn left there until a vacuum.
  return `WITH found AS MATERIALIZED (
      SELECT p.ctid AS row FROM unnest($15::bigint[]) AS s(n)
      CROSS JOIN LATERAL (SELECT ctid FROM ${t.pendingEvents} WHERE organization_id = $1 AND n = s.n LIMIT 1) AS p
    ), moved AS (
      UPDATE ${t.chains} SET seq = $16, hash = $17, ${treeHeadSet(18, '$16')}
      WHERE organization_id = $1 AND seq = $22 AND tree_size = $23 AND (seq = 0 OR hash = $24)
        AND (SELECT count(*) FROM found) = cardinality($15::bigint[])
      RETURNING 1
    ), e AS (
      SELECT * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[], $9::text[])
        AS e(seq, id, type, project, environment, occurred_at, body, traceparent)
      WHERE ${moved}
    ), stored_events AS (
      INSERT INTO ${t.events} (organization_id, seq, id, type, project, environment, occurred_at, body)
      SELECT $1, e.seq, e.id, e.type, e.project, e.environment, e.occurred_at, e.body FROM e
    ), queued_deliveries AS (
      INSERT INTO ${t.deliveries} (id, organization_id, webhook_id, event_id, event_seq, state, next_attempt_at, created_at, traceparent)
      SELECT ${NEW_ID}, $1, w.id, e.id, e.seq, o.state, e.occurred_at, e.occurred_at, e.traceparent
      FROM e JOIN unnest($10::bigint[], $11::text[], $12::text[]) AS o(seq, status, state) ON o.seq = e.seq
      JOIN ${t.webhooks} w ON w.organization_id = $1 AND w.status = o.status
      WHERE cardinality(w.event_types) = 0
         OR w.event_types && ARRAY(SELECT s.p FROM unnest($13::bigint[], $14::text[]) AS s(seq, p) WHERE s.seq = e.seq)
    ), ${treeNodesStatement(t, 18, moved)}sealed AS (
      DELETE FROM ${t.pendingEvents} WHERE ctid = ANY(ARRAY(SELECT row FROM found)) AND ${moved}
    )
    SELECT ${moved} AS moved`;
}

/** The outbox rule of each event, flattened for {@link sealStatement}'s `unnest`s. */
function ruleParams(events: readonly ActivityEvent[]): unknown[] {
  const rule: [number[], string[], string[]] = [[], [], []];
  const selectors: [number[], string[]] = [[], []];
  for (const event of events) {
    const { statuses, states } = outboxTable(event.type);
    statuses.forEach((status, i) => {
      rule[0].push(event.seq);
      rule[1].push(status);
      rule[2].push(states[i]!);
    });
    for (const pattern of outboxFilterSql.selecting(event.type)) {
      selectors[0].push(event.seq);
      selectors[1].push(pattern);
    }
  }
  return [...rule, ...selectors];
}

/** The organization's pending events, oldest first: their row numbers, drafts and traceparents. */
export interface PendingEvents {
  ns: number[];
  drafts: ActivityDraft[];
  traceparents: (string | null)[];
}

/**
 * The `FROM` item that reads every pending event of the organization `$1` as one row (in `n` order):
 * `pending_ns`, the row numbers; `pending_drafts`, the drafts as one JSON array text;
 * `pending_traceparents`. Read as {@link pendingOfRow}. One ordered scan of the primary key: the
 * pending rows churn (each lives a few milliseconds), and a plain index scan marks the dead
 * entries it meets so that later scans skip them, where a bitmap scan (which three separate
 * aggregates got) walks every dead entry again until a vacuum.
 */
export function pendingLateral(t: Tables): string {
  return `LATERAL (
      SELECT array_agg(n ORDER BY n) AS pending_ns,
        '[' || string_agg(draft, ',' ORDER BY n) || ']' AS pending_drafts,
        array_agg(traceparent ORDER BY n) AS pending_traceparents
      FROM (SELECT n, draft, traceparent FROM ${t.pendingEvents} p WHERE p.organization_id = $1 ORDER BY n) AS o
    ) AS pending`;
}

/** The pending events {@link pendingLateral} read (one JSON parse for every draft). */
export function pendingOfRow(row: {
  pending_ns: unknown[] | null;
  pending_drafts: string | null;
  pending_traceparents: (string | null)[] | null;
}): PendingEvents {
  return {
    ns: (row.pending_ns ?? []).map(int),
    drafts: row.pending_drafts === null ? [] : (JSON.parse(row.pending_drafts) as ActivityDraft[]),
    traceparents: row.pending_traceparents ?? [],
  };
}

/**
 * Seals every pending event of the organization after `locked` (the chain head, locked by the
 * caller's transaction), and returns the chain after them and how many it sealed. `pending`, when
 * given, are those events as read under the lock; without it they are read here.
 */
export async function sealLocked(
  tx: SqlQueryable,
  t: Tables,
  organizationId: string,
  locked: LockedChain,
  pending?: PendingEvents,
): Promise<LockedChain & { sealed: number }> {
  const sealed = await sealAfter(
    tx,
    t,
    organizationId,
    locked,
    pending ?? (await readPending(tx, t, organizationId)),
  );
  // Under the lock the head cannot have moved.
  if (!sealed) throw new Error(`the chain head of ${organizationId} moved under its lock`);
  return sealed;
}

/**
 * Seals `pending` after `chain` as read (in one snapshot with them), in one statement: null when the
 * head moved since (nothing written then; read again). Needs no lock nor transaction: the statement
 * is atomic and writes only while the head is the one it was computed after.
 */
export async function sealAfter(
  q: SqlQueryable,
  t: Tables,
  organizationId: string,
  chain: LockedChain,
  { ns, drafts, traceparents }: PendingEvents,
): Promise<(LockedChain & { sealed: number }) | null> {
  if (ns.length === 0) return { ...chain, sealed: 0 };
  const batch = sealBatch(drafts, chain.head, chain.tree);
  const { events } = batch;
  const { rows } = await q.query<{ moved: boolean }>(sealStatement(t), [
    organizationId,
    ...eventColumns(events),
    traceparents,
    ...ruleParams(events),
    ns,
    batch.head!.seq,
    batch.head!.hash,
    ...treeParams(batch.tree),
    chain.head?.seq ?? 0,
    chain.tree.size,
    chain.head?.hash ?? '',
  ]);
  if (!rows[0]?.moved) return null;
  return { head: batch.head, tree: batch.tree?.tree ?? chain.tree, sealed: events.length };
}

async function readPending(tx: SqlQueryable, t: Tables, organizationId: string): Promise<PendingEvents> {
  const { rows } = await tx.query<Parameters<typeof pendingOfRow>[0]>(
    `SELECT pending.* FROM ${pendingLateral(t)}`,
    [organizationId],
  );
  return pendingOfRow(rows[0]!);
}

/**
 * The statement a push stores its event with, as pending: the data-modifying CTEs of the push
 * (`before`, ending with a comma) and the pending row. $1 organization, $2 event id, $3 the draft's
 * JSON, $4 the request's traceparent; `before` may use $5 onwards; the parameter `positionAt` is the
 * event's `n` when the push took one (else null: the next of the sequence).
 */
export function storePendingStatement(t: Tables, before: string, positionAt: number): string {
  return `WITH ${before.replace(/,\s*$/, '')}
    INSERT INTO ${t.pendingEvents} (organization_id, n, id, draft, traceparent) OVERRIDING SYSTEM VALUE
    VALUES ($1, COALESCE($${positionAt}::bigint, nextval('${t.pendingEventsOrder}'::regclass)), $2, $3, $4)`;
}
