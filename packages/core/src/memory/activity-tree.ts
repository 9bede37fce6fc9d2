/**
 * The Merkle tree in memory: per organization its state (size and right frontier) and the complete
 * subtrees' hashes, one array per level, extended with each event and undone with the transaction.
 */
import { extendTree, treeHeadAt } from '../activity/merkle/stored-tree.js';
import { EMPTY_TREE, type TreeState } from '../activity/merkle/tree-state.js';
import type { ActivityEvent } from '../model/model.js';
import type { ActivityTreeReads } from '../store/ports/activity-tree.js';

/** The undo journal of a memory transaction (see `Journal` in `state.ts`). */
type Journal = (() => void)[] | null;

/** One organization's tree. */
export interface MemoryTree {
  state: TreeState;
  /** `levels[level][index]`: the complete subtree's root. */
  levels: Uint8Array[][];
}

/** orgId -> its tree. */
export type MemoryTrees = Map<string, MemoryTree>;

/** Adds `events` (just appended to the organization's chain) to its tree. */
export function growMemoryTree(
  trees: MemoryTrees,
  journal: Journal,
  organizationId: string,
  events: readonly ActivityEvent[],
): void {
  let tree = trees.get(organizationId);
  if (!tree) {
    tree = { state: EMPTY_TREE, levels: [] };
    trees.set(organizationId, tree);
  }
  const grown = extendTree(tree.state, events);
  if (!grown) return;
  const target = tree;
  const before = { state: target.state, lengths: target.levels.map((l) => l.length) };
  for (const node of grown.nodes) {
    const level = target.levels[node.level] ?? [];
    target.levels[node.level] = level;
    level[node.index] = node.hash;
  }
  target.state = grown.tree;
  journal?.push(() => {
    target.state = before.state;
    target.levels.length = before.lengths.length;
    target.levels.forEach((level, i) => {
      level.length = before.lengths[i]!;
    });
  });
}

/** The tree reads of the memory store. */
export function memoryTreeReads(trees: MemoryTrees): ActivityTreeReads {
  const nodes = async (organizationId: string, addresses: readonly { level: number; index: number }[]) => {
    const levels = trees.get(organizationId)?.levels ?? [];
    return addresses.map(({ level, index }) => {
      const hash = levels[level]?.[index];
      if (!hash) throw new Error(`tree node ${level}/${index} of ${organizationId} is not stored`);
      return hash.slice();
    });
  };
  return {
    treeNodes: nodes,
    treeHead(organizationId, size) {
      const state = trees.get(organizationId)?.state ?? EMPTY_TREE;
      return treeHeadAt(state, size, (addresses) => nodes(organizationId, addresses));
    },
  };
}
