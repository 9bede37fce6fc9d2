/**
 * Migration 14: each organization's Merkle tree (RFC 6962) beside its hash chain. The chain head
 * row gains the tree's size and right frontier (the complete subtrees' roots along the right edge,
 * 32 bytes each), so an append extends the tree without reading anything else; `activity_tree_nodes`
 * keeps every complete subtree's root, one row each, so a proof is one read of O(log n) rows by the
 * primary key. Existing logs start with an empty tree (`tree_size` 0 below `seq`): the store's
 * back-fill (`tree-backfill.ts`), run when it opens, builds it in batches, because a leaf is the
 * canonical JSON of an event, which SQL cannot compute.
 */
import { migration } from './migration.js';

export const merkleTree = migration(14, 'merkle-tree', (t) => [
  `ALTER TABLE ${t.chains}
       ADD COLUMN tree_size bigint NOT NULL DEFAULT 0,
       ADD COLUMN tree_frontier bytea NOT NULL DEFAULT ''::bytea`,
  `CREATE TABLE ${t.treeNodes} (
       organization_id text NOT NULL,
       level smallint NOT NULL,
       idx bigint NOT NULL,
       hash bytea NOT NULL,
       PRIMARY KEY (organization_id, level, idx)
     )`,
]);
