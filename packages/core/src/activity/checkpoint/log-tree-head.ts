/**
 * The tree head a checkpoint note names: the RFC 6962 Merkle Tree Hash of an organization's events
 * (leaf data = the RFC 8785 JCS of each event as history returns it, `hash` included; leaf hash
 * SHA-256(0x00 || data), node hash SHA-256(0x01 || left || right)).
 *
 * It reads the store's tree (`activity.treeHead`, O(log n) stored nodes). While an older log's tree
 * is still being back-filled the store has no head for it yet: then it streams the log and folds it
 * in memory (O(n) time, O(log n) space), so a checkpoint never waits for the back-fill.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { TreeHead } from '../../model/tree.js';
import type { LatchkeyStore } from '../../store/types.js';
import { chainHead, exportPages } from '../export/stream.js';

export type { TreeHead } from '../../model/tree.js';

const leafHash = (data: string): Buffer => createHash('sha256').update(Buffer.of(0)).update(data).digest();
const nodeHash = (left: Uint8Array, right: Uint8Array): Buffer =>
  createHash('sha256').update(Buffer.of(1)).update(left).update(right).digest();

/**
 * The tree head over the organization's first `size` events (default: all of them as the call
 * starts); null when `size` is past the log's end.
 */
export async function treeHeadOf(
  store: LatchkeyStore,
  organizationId: string,
  size?: number,
): Promise<TreeHead | null> {
  const head = await chainHead(store, organizationId);
  const wanted = size ?? head.seq;
  if (!Number.isSafeInteger(wanted) || wanted < 0 || wanted > head.seq) return null;
  const stored = await store.activity.treeHead(organizationId, wanted);
  if (stored) return stored;
  // Complete subtrees, largest first: RFC 6962 splits at the largest power of two below n, so the
  // left parts of the tree are exactly these perfect subtrees.
  const stack: { height: number; hash: Uint8Array }[] = [];
  let count = 0;
  for await (const page of exportPages(store, { organizationId }, wanted)) {
    for (const event of page) {
      let entry = { height: 0, hash: leafHash(canonicalize(event) ?? '') as Uint8Array };
      while (stack.length > 0 && stack[stack.length - 1]!.height === entry.height) {
        const left = stack.pop()!;
        entry = { height: entry.height + 1, hash: nodeHash(left.hash, entry.hash) };
      }
      stack.push(entry);
      count++;
    }
  }
  if (count !== wanted)
    throw new Error(`The activity log has ${count} events where ${wanted} were expected.`);
  return { size: wanted, rootHash: rootOf(stack) };
}

function rootOf(stack: readonly { hash: Uint8Array }[]): Uint8Array {
  if (stack.length === 0) return createHash('sha256').digest();
  let hash = stack[stack.length - 1]!.hash;
  for (let i = stack.length - 2; i >= 0; i--) hash = nodeHash(stack[i]!.hash, hash);
  return hash;
}
