/**
 * The back-fill of the Merkle tree for logs written before it existed (migration 14). A leaf is the
 * canonical JSON of an event, which SQL cannot compute, so this runs in the process when the store
 * opens: for each organization whose tree is shorter than its chain, a batch at a time, each batch
 * one transaction that locks the chain head (appends wait for that batch only), reads the next
 * events in `seq` order, and stores their nodes and the new frontier. Appends made meanwhile leave
 * the lagging tree alone, and the next batch takes their events too, so the tree catches up.
 * Idempotent and resumable: an interrupted back-fill resumes from the tree's size.
 */
import { type ActivityEvent, extendTree } from '@latchkey/core/store';
import type { SqlDriver } from './driver.js';
import { TREE_COLUMNS, treeHeadSet, treeNodesStatement, treeOfRow, treeParams } from './repositories/tree.js';
import { int } from './rows.js';
import type { Tables } from './schema-name.js';

/** What {@link backfillTrees} did. */
export interface BackfillReport {
  organizations: number;
  events: number;
}

/** Builds the tree of every organization whose tree lags its chain, `batch` events per transaction. */
export async function backfillTrees(driver: SqlDriver, t: Tables, batch = 2000): Promise<BackfillReport> {
  const report: BackfillReport = { organizations: 0, events: 0 };
  const { rows } = await driver.query<{ organization_id: string }>(
    `SELECT organization_id FROM ${t.chains} WHERE tree_size < seq ORDER BY organization_id`,
  );
  for (const { organization_id: organizationId } of rows) {
    report.organizations++;
    for (;;) {
      const step = await driver.transaction((tx) => backfillBatch(tx, t, organizationId, batch));
      report.events += step.added;
      if (step.done) break;
    }
  }
  return report;
}

async function backfillBatch(
  tx: Pick<SqlDriver, 'query'>,
  t: Tables,
  organizationId: string,
  batch: number,
): Promise<{ added: number; done: boolean }> {
  const { rows } = await tx.query<{ seq: unknown; tree_size: unknown; tree_frontier: string }>(
    `SELECT seq, ${TREE_COLUMNS} FROM ${t.chains} WHERE organization_id = $1 FOR UPDATE`,
    [organizationId],
  );
  const row = rows[0];
  if (!row) return { added: 0, done: true };
  const tree = treeOfRow(row);
  if (tree.size >= int(row.seq)) return { added: 0, done: true };
  const { rows: bodies } = await tx.query<{ body: string }>(
    `SELECT body FROM ${t.events} WHERE organization_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [organizationId, tree.size, batch],
  );
  // The leaf is the event as history returns it: the stored JSON, parsed.
  const events = bodies.map((b) => JSON.parse(b.body) as ActivityEvent);
  events.forEach((event, i) => {
    if (event.seq !== tree.size + 1 + i) {
      throw new Error(
        `the log of ${organizationId} has no event ${tree.size + 1 + i}: cannot build its tree`,
      );
    }
  });
  const grown = extendTree(tree, events);
  if (!grown) return { added: 0, done: true };
  await tx.query(
    `WITH ${treeNodesStatement(t, 2)}moved AS (SELECT 1)
     UPDATE ${t.chains} SET ${treeHeadSet(2, String(grown.tree.size))} WHERE organization_id = $1`,
    [organizationId, ...treeParams(grown)],
  );
  return { added: events.length, done: grown.tree.size >= int(row.seq) };
}
