/**
 * What every store does with its tree, decided once here: extend it by sealed events (or leave it
 * to the back-fill when it lags the chain), and answer its root hash at a size.
 */
import type { ActivityEvent } from '../../model/model.js';
import type { TreeHead } from '../../model/tree.js';
import { eventLeafHash } from './hashes.js';
import { type NodeReader, rootAt } from './proofs.js';
import { appendLeaves, type StoredNode, type TreeState, treeRoot } from './tree-state.js';

/**
 * The tree after `events` (consecutive, oldest first) and the nodes to store, or null when the tree
 * does not end just before the first of them: a log whose tree is still being back-filled, which
 * the back-fill extends up to the chain head later.
 */
export function extendTree(
  tree: TreeState,
  events: readonly ActivityEvent[],
): { tree: TreeState; nodes: StoredNode[] } | null {
  if (events.length === 0 || events[0]!.seq !== tree.size + 1) return null;
  return appendLeaves(tree, events.map(eventLeafHash));
}

/** The head of `tree` at `size` (default: its whole size); null when `size` is beyond it. */
export async function treeHeadAt(
  tree: TreeState,
  size: number | undefined,
  read: NodeReader,
): Promise<TreeHead | null> {
  const at = size ?? tree.size;
  if (!Number.isSafeInteger(at) || at < 0 || at > tree.size) return null;
  return { size: at, rootHash: at === tree.size ? treeRoot(tree) : await rootAt(at, read) };
}
