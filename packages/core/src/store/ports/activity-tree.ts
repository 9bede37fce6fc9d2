/** Port: reading an organization's Merkle tree (RFC 6962), kept by the store with its chain. */

import type { NodeAddress, TreeHead } from '../../model/tree.js';

/**
 * What a store keeps of each organization's tree, written in the same transaction as each event
 * on every path that appends to the chain (appends, pushes, restores): its right frontier with the
 * chain head, and every complete subtree's root hash (`extendTree` says which).
 */
export interface ActivityTreeReads {
  /**
   * The tree's size and root hash at `size` leaves (default: every leaf it holds), or null when
   * `size` is beyond it. The tree holds every event once the back-fill of a log older than the tree
   * is done; until then it may be shorter than the chain.
   */
  treeHead(organizationId: string, size?: number): Promise<TreeHead | null>;
  /** The stored complete subtrees' hashes, in the order asked; throws when one is not stored. */
  treeNodes(organizationId: string, addresses: readonly NodeAddress[]): Promise<Uint8Array[]>;
}
