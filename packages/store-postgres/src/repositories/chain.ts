/**
 * Appending to an organization's hash chain on SQL. The chain's head row is locked first (and
 * created, race-safely, for the first event), so concurrent appends from any number of processes
 * queue on it and the chain never forks. Must run inside a transaction.
 */
import {
  type ActivityDraft,
  type ActivityEvent,
  type ChainHead,
  extendTree,
  sealEvent,
} from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
import { int } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { queueParams, queueStatement } from './outbox.js';
import { type LockedChain, pendingColumns, pendingOfRow, sealLocked } from './seal.js';
import { TREE_COLUMNS, treeHeadSet, treeNodesStatement, treeOfRow, treeParams } from './tree.js';

/** Locks the organization's chain head (creating it, race-safely, before the first event) and reads it. */
export async function lockChainHead(
  tx: SqlQueryable,
  t: Tables,
  organizationId: string,
): Promise<ChainHead | null> {
  return (await lockChain(tx, t, organizationId)).head;
}

/**
 * {@link lockChainHead}, with the organization's Merkle tree as the head row holds it, and whether
 * pushes left events pending (as the lock's snapshot saw them: one committed while the lock was
 * awaited is sealed by the next seal instead).
 */
export async function lockChain(
  tx: SqlQueryable,
  t: Tables,
  organizationId: string,
): Promise<LockedChain & { pending: boolean }> {
  type Row = { seq: unknown; hash: string; tree_size: unknown; tree_frontier: string; pending: boolean };
  const select = `SELECT seq, hash, ${TREE_COLUMNS},
      EXISTS (SELECT 1 FROM ${t.pendingEvents} p WHERE p.organization_id = $1) AS pending
    FROM ${t.chains} WHERE organization_id = $1 FOR UPDATE`;
  let { rows } = await tx.query<Row>(select, [organizationId]);
  if (rows.length === 0) {
    await tx.query(
      `INSERT INTO ${t.chains} (organization_id, seq, hash) VALUES ($1, 0, '') ON CONFLICT (organization_id) DO NOTHING`,
      [organizationId],
    );
    ({ rows } = await tx.query<Row>(select, [organizationId]));
  }
  const seq = int(rows[0]!.seq);
  return {
    head: seq === 0 ? null : { seq, hash: rows[0]!.hash },
    tree: treeOfRow(rows[0]),
    pending: rows[0]!.pending,
  };
}

/**
 * Locks the chain head and seals every pending event of the organization (see `seal.ts`), in one
 * transaction of its own (or the caller's); returns how many it sealed. The statement that locks
 * the head also reads the pending events, in its snapshot, which it took before the lock was
 * granted: when the head moved in between (another seal or append committed meanwhile, so some of
 * those events may be sealed already), they are read again, after the lock.
 */
export function sealPending(db: Runner, t: Tables, organizationId: string): Promise<number> {
  return db.atomic(async (tx) => {
    type Row = { seq: unknown; hash: string; tree_size: unknown; tree_frontier: string; seen_seq: unknown };
    const { rows } = await tx.query<Row & Parameters<typeof pendingOfRow>[0]>(
      `SELECT seq, hash, ${TREE_COLUMNS},
         (SELECT s.seq FROM ${t.chains} s WHERE s.organization_id = $1) AS seen_seq, ${pendingColumns(t)}
       FROM ${t.chains} WHERE organization_id = $1 FOR UPDATE`,
      [organizationId],
    );
    const row = rows[0];
    if (!row) {
      // No chain head yet: the first event's path creates it.
      const locked = await lockChain(tx, t, organizationId);
      return (await sealLocked(tx, t, organizationId, locked)).sealed;
    }
    const seq = int(row.seq);
    const locked = { head: seq === 0 ? null : { seq, hash: row.hash }, tree: treeOfRow(row) };
    const current = int(row.seen_seq) === seq;
    return (await sealLocked(tx, t, organizationId, locked, current ? pendingOfRow(row) : undefined)).sealed;
  });
}

/**
 * Seals the pending events of every organization that has some (older than `olderThanMs` when
 * given): run when the store opens and by its periodic sweep, so the events of a push whose process
 * died between its commit and its seal are sealed even when nothing else is appended.
 */
export async function sealEveryPending(db: Runner, t: Tables, olderThanMs = 0): Promise<number> {
  const { rows } = await db.query<{ organization_id: string }>(
    `SELECT DISTINCT organization_id FROM ${t.pendingEvents}
     WHERE created_at <= now() - make_interval(secs => $1::double precision / 1000)`,
    [olderThanMs],
  );
  let sealed = 0;
  for (const { organization_id } of rows) sealed += await sealPending(db, t, organization_id);
  return sealed;
}

/**
 * The statement that stores a sealed event, queues its audit webhook deliveries (the outbox, by
 * core's fan-out rule: see `outbox.ts`) and moves the chain head to it, as data-modifying CTEs that
 * other writes of the same transaction can join (`before`), so it all costs one round trip.
 * The same statement stores the Merkle tree's new nodes and moves its frontier (`tree.ts`).
 * Parameters: $1 organization, $2 seq, $3 id, $4 type, $5 project, $6 environment, $7 occurred_at,
 * $8 body, $9 hash, $10 to $13 the outbox rule and traceparent; `before` may use $14 onwards; the
 * tree's four ({@link treeParams}) start at `treeAt`, after `before`'s.
 */
export function storeEventStatement(t: Tables, before = '', treeAt = 14): string {
  return `WITH ${before}${treeNodesStatement(t, treeAt)}stored_event AS (
      INSERT INTO ${t.events} (organization_id, seq, id, type, project, environment, occurred_at, body)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    ), queued_deliveries AS (
      ${queueStatement(t)}
    )
    UPDATE ${t.chains} SET seq = $2, hash = $9, ${treeHeadSet(treeAt, '$2')} WHERE organization_id = $1`;
}

/** The parameters $1–$13 of {@link storeEventStatement}; the tree's are {@link treeParams}. */
export function storeEventParams(organizationId: string, event: ActivityEvent): unknown[] {
  return [
    organizationId,
    event.seq,
    event.id,
    event.type,
    event.project ?? null,
    event.environment ?? null,
    event.occurred_at,
    JSON.stringify(event),
    event.hash,
    ...queueParams(event.type),
  ];
}

/** Seals `draft` after the organization's head, stores it and moves the head; returns the event. */
export async function appendToChain(
  tx: SqlQueryable,
  t: Tables,
  organizationId: string,
  draft: ActivityDraft,
): Promise<ActivityEvent> {
  const found = await lockChain(tx, t, organizationId);
  // Pending events of pushes go first, so the organization's events keep one order.
  const { head, tree } = found.pending ? await sealLocked(tx, t, organizationId, found) : found;
  const event = sealEvent(draft, head);
  await tx.query(storeEventStatement(t), [
    ...storeEventParams(organizationId, event),
    ...treeParams(extendTree(tree, [event])),
  ]);
  return event;
}
