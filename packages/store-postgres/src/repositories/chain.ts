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
  type PendingEvent,
  sealEvent,
} from '@latchkey/core/store';
import { type SqlQueryable, sendDeferred } from '../driver.js';
import { int } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { queueParams, queueStatement } from './outbox.js';
import { type LockedChain, pendingLateral, pendingOfRow, sealAfter, sealLocked } from './seal.js';
import type { SealedHeads } from './sealed-heads.js';
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
async function lockChain(
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

/** Reads of the head that found it moved before the seal could write, before the seal locks it instead. */
const OPTIMISTIC_TRIES = 5;

/**
 * Seals every pending event of the organization (see `seal.ts`); returns how many it sealed.
 *
 * With `own` (events this process committed, numbered by their pushes) and the head its last seal
 * left (`heads`), one statement seals just those after that head: it writes only if the head has
 * not moved and they are all still pending, so a seal by another process in between makes it
 * write nothing, and the seal reads instead. Reading is two round trips and no transaction: one
 * statement reads the chain head with every pending event (one snapshot), the other writes the
 * seal only if the head is still that one (`sealAfter`). A head another seal or append moved in
 * between writes nothing, and the seal reads again; after {@link OPTIMISTIC_TRIES} such tries (or
 * with no head yet) it locks the head in a transaction.
 */
export async function sealPending(
  db: Runner,
  t: Tables,
  organizationId: string,
  own: readonly PendingEvent[] = [],
  heads?: SealedHeads,
): Promise<number> {
  try {
    const known = own.length > 0 ? heads?.get(organizationId) : undefined;
    if (known) {
      const sealed = await sealAfter(db, t, organizationId, known, {
        ns: own.map((e) => e.position),
        drafts: own.map((e) => JSON.parse(e.draft) as ActivityDraft),
        traceparents: own.map((e) => e.traceparent),
      });
      if (sealed) {
        heads!.set(organizationId, { head: sealed.head, tree: sealed.tree });
        return sealed.sealed;
      }
    }
    const sealed = await readAndSeal(db, t, organizationId);
    heads?.set(organizationId, sealed);
    return sealed.sealed;
  } catch (error) {
    heads?.forget(organizationId);
    throw error;
  }
}

/** Reads the chain head and the pending events, and seals them after it (see {@link sealPending}). */
async function readAndSeal(
  db: Runner,
  t: Tables,
  organizationId: string,
): Promise<LockedChain & { sealed: number }> {
  type Row = { seq: unknown; hash: string; tree_size: unknown; tree_frontier: string };
  for (let tries = 0; tries < OPTIMISTIC_TRIES; tries++) {
    const { rows } = await db.query<Row & Parameters<typeof pendingOfRow>[0]>(
      `SELECT seq, hash, ${TREE_COLUMNS}, pending.* FROM ${t.chains}, ${pendingLateral(t)} WHERE organization_id = $1`,
      [organizationId],
    );
    const row = rows[0];
    if (!row) break;
    const seq = int(row.seq);
    const chain = { head: seq === 0 ? null : { seq, hash: row.hash }, tree: treeOfRow(row) };
    const sealed = await sealAfter(db, t, organizationId, chain, pendingOfRow(row));
    if (sealed) return sealed;
  }
  return db.atomic(async (tx) => {
    const locked = await lockChain(tx, t, organizationId);
    return sealLocked(tx, t, organizationId, locked);
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
function storeEventParams(organizationId: string, event: ActivityEvent): unknown[] {
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

/**
 * Seals `draft` after the organization's head, stores it and moves the head; returns the event.
 * The storing statement is deferred where the transaction can defer (its answer is not needed: the
 * head is locked), so it goes with the transaction's next round trip, often its COMMIT.
 */
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
  await sendDeferred(tx, storeEventStatement(t), [
    ...storeEventParams(organizationId, event),
    ...treeParams(extendTree(tree, [event])),
  ]);
  return event;
}
