/**
 * What a restore requires of a backup's Merkle tree. The tree itself is not in the backup: it is a
 * function of the events, so restore rebuilds it (the first pass folds it in memory, O(log n)
 * space; the second grows the store's tree as it writes history). When the backup's checkpoint
 * signs a tree head (`tree_size`, `root_hash`; backups made since the server kept the tree), the
 * rebuilt root must be that one, before anything is written and again in the store after writing,
 * inside the restore's transaction. A checkpoint without a tree head (an older backup, or a log
 * whose tree was still being back-filled) still signs the chain head, whose hash covers every event:
 * then the store's rebuilt tree is held to the root the first pass computed from the same events.
 */
import type { Checkpoint } from '../../activity/checkpoint/checkpoint-form.js';
import { eventLeafHash, sameHash } from '../../activity/merkle/hashes.js';
import { appendLeaves, EMPTY_TREE, type TreeState, treeRoot } from '../../activity/merkle/tree-state.js';
import { fromBase64, toBase64 } from '../../encoding/base64.js';
import type { ActivityEvent } from '../../model/model.js';
import type { StoreTransaction } from '../../store/types.js';
import { invalidBackup } from './reader.js';

/** The tree head a restore holds the written history to. */
export interface ExpectedTree {
  size: number;
  /** Standard base64 root hash. */
  rootHash: string;
  /** Whether the backup's checkpoint signs this head (else the first pass computed it). */
  signed: boolean;
}

/**
 * Checks the tree head a checkpoint signs, when it signs one: both fields, the tree over exactly
 * the chain head's events, a 32-byte root. Throws a 422 naming line 1.
 */
export function checkSignedTreeHead(checkpoint: Pick<Checkpoint, 'seq' | 'tree_size' | 'root_hash'>): void {
  const { seq, tree_size, root_hash } = checkpoint;
  if (tree_size === undefined && root_hash === undefined) return;
  if (tree_size === undefined || root_hash === undefined) {
    throw invalidBackup(
      1,
      'its checkpoint signs a tree size without a root hash, or a root hash without a size',
    );
  }
  if (tree_size !== seq) {
    throw invalidBackup(1, `its checkpoint signs a tree of ${tree_size} events at chain head ${seq}`);
  }
  if (fromBase64(root_hash)?.length !== 32) {
    throw invalidBackup(1, 'its checkpoint’s root_hash is not a base64 SHA-256 hash');
  }
}

/** The first pass's fold of the history into its tree. */
export class TreeCheck {
  private tree: TreeState = EMPTY_TREE;

  /** Takes the next event of the history (in order: the reader has checked the chain). */
  take(event: ActivityEvent): void {
    // Only the frontier is kept: the nodes are the store's to write in the second pass.
    this.tree = appendLeaves(this.tree, [eventLeafHash(event)]).tree;
  }

  /**
   * At the end: the head the written history must have. Refuses (line 1) a history whose root is
   * not the one its checkpoint signs.
   */
  finish(checkpoint: Pick<Checkpoint, 'tree_size' | 'root_hash'>): ExpectedTree {
    const rootHash = toBase64(treeRoot(this.tree));
    const { size } = this.tree;
    if (checkpoint.root_hash === undefined) return { size, rootHash, signed: false };
    if (checkpoint.tree_size !== size || checkpoint.root_hash !== rootHash) {
      throw mismatch(checkpoint.tree_size ?? size, checkpoint.root_hash, size, rootHash);
    }
    return { size, rootHash, signed: true };
  }
}

/**
 * After the second pass has written the history: the store's tree at the expected size must have
 * the expected root. Throws inside the restore's transaction, which then writes nothing.
 */
export async function checkWrittenTree(
  tx: StoreTransaction,
  organizationId: string,
  expected: ExpectedTree,
): Promise<void> {
  const head = await tx.activity.treeHead(organizationId, expected.size);
  const root = head ? toBase64(head.rootHash) : null;
  const want = fromBase64(expected.rootHash);
  if (head && want && sameHash(head.rootHash, want)) return;
  throw mismatch(expected.size, expected.rootHash, head?.size ?? 0, root ?? 'none', expected.signed);
}

function mismatch(size: number, want: string, got: number, root: string, signed = true) {
  const what = signed ? 'the root its checkpoint signs' : 'the root of its events';
  return invalidBackup(
    1,
    `its history rebuilds a Merkle tree of ${got} events with root ${root}, not ${what} (${size} events, root ${want})`,
  );
}
