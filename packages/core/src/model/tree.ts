/** The Merkle tree's shapes the store's tree port names: a stored subtree's address and a tree head. */

/** A complete subtree of the tree. */
export interface NodeAddress {
  level: number;
  index: number;
}

/** A tree's size and root hash (RFC 6962 MTH of its first `size` leaves). */
export interface TreeHead {
  size: number;
  rootHash: Uint8Array;
}
