/**
 * The sequencer's rule, decided once here for every store: pending drafts of one organization, in
 * the order the store keeps them, are placed after the chain head one by one (`seq`, `prev_hash`,
 * `hash`, as {@link sealEvent} does for a single append) and extend the Merkle tree by one leaf
 * each, in one step. The store persists the result under the chain head's lock.
 */
import type { ActivityDraft, ActivityEvent } from '../model/model.js';
import { type ChainHead, sealEvent } from './chain.js';
import { extendTree } from './merkle/stored-tree.js';
import type { StoredNode, TreeState } from './merkle/tree-state.js';

/** A sealed batch: its events, the chain head after them, and the tree's writes (null when the tree lags the chain). */
export interface SealedBatch {
  events: ActivityEvent[];
  head: ChainHead | null;
  tree: { tree: TreeState; nodes: StoredNode[] } | null;
}

/** Seals `drafts` (oldest first) after `head`, extending `tree` by their leaves. */
export function sealBatch(
  drafts: readonly ActivityDraft[],
  head: ChainHead | null,
  tree: TreeState,
): SealedBatch {
  const events: ActivityEvent[] = [];
  let at = head;
  for (const draft of drafts) {
    const event = sealEvent(draft, at);
    events.push(event);
    at = { seq: event.seq, hash: event.hash };
  }
  return { events, head: at, tree: extendTree(tree, events) };
}
