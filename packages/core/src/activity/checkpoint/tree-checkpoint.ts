/**
 * The checkpoint the proof routes and exports end with: the chain head, and, when the tree holds
 * exactly that many events, the tree's size and root hash, all under one audit-key signature, so a
 * proof against `root_hash` is as trustworthy as the signature.
 */
import { toBase64 } from '../../encoding/base64.js';
import type { Organization } from '../../model/model.js';
import type { StoreTransaction } from '../../store/types.js';
import { chainHead } from '../export/stream.js';
import { type AuditKey, type Checkpoint, signCheckpoint } from './checkpoint.js';
import type { CheckpointDeps } from './checkpoint-deps.js';
import { type CheckpointView, checkpointView } from './checkpoint-view.js';

/** A chain head and, when the tree is at it, the tree's size and root (base64). */
export interface TreeChainHead {
  seq: number;
  hash: string;
  tree_size?: number;
  root_hash?: string;
}

/**
 * The organization's chain head with its tree head. The tree is read at the chain head's size, so
 * an append in between changes nothing; a tree still being back-filled is left out.
 */
export async function treeChainHead(
  store: Pick<StoreTransaction, 'activity'>,
  organizationId: string,
): Promise<TreeChainHead> {
  const head = await chainHead(store, organizationId);
  const tree = await store.activity.treeHead(organizationId, head.seq);
  if (!tree) return head;
  return { ...head, tree_size: tree.size, root_hash: toBase64(tree.rootHash) };
}

/** Signs `head` for the organization `slug` at `now` (milliseconds). */
export function signTreeHead(slug: string, head: TreeChainHead, key: AuditKey, now: number): Checkpoint {
  return signCheckpoint({ organization: slug, ...head }, key, new Date(now).toISOString());
}

/**
 * The checkpoint of `head` as the proof route and the export's last line carry it: when the tree is
 * at the head, the checkpoint route's own view (the JSON signature and the C2SP note of the same
 * tree head with its cosignatures), so one event or one export is checked offline, by the note
 * alone too, without asking the server again; while the tree is back-filled, the JSON alone.
 */
export async function notedTreeHead(
  services: Pick<CheckpointDeps, 'store' | 'now' | 'checkpointOrigin'>,
  key: AuditKey,
  organization: Organization,
  head: TreeChainHead,
): Promise<Checkpoint | CheckpointView> {
  if (head.tree_size === undefined) return signTreeHead(organization.slug, head, key, services.now());
  return checkpointView(services, key, organization, head.tree_size);
}
