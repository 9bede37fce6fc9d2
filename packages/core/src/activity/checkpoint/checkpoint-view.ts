/**
 * What `GET …/activity/checkpoint` answers: the JSON checkpoint of the chain head and, for the same
 * head, the C2SP checkpoint note with every cosignature the organization's witnesses sent for it.
 */

import { toBase64 } from '../../encoding/base64.js';
import { LatchkeyError } from '../../errors/latchkey-error.js';
import type { Organization } from '../../model/model.js';
import { type ChainHead, GENESIS_HASH } from '../chain.js';
import { chainHead } from '../export/stream.js';
import { type AuditKey, type Checkpoint, signCheckpoint } from './checkpoint.js';
import type { CheckpointDeps } from './checkpoint-deps.js';
import { checkpointOriginLine, signCheckpointNote } from './checkpoint-note.js';
import { treeHeadOf } from './log-tree-head.js';
import { requireAuditKey } from './require-audit-key.js';

/** The checkpoint JSON with its note. */
export interface CheckpointView extends Checkpoint {
  tree_size: number;
  root_hash: string;
  verifier_key: string;
  note: string;
  cosignatures: { witness: string; timestamp: number }[];
}

/** The chain head after the first `size` events; a 400 past the log's end. */
async function headAt(
  services: Pick<CheckpointDeps, 'store'>,
  organization: Organization,
  size: number,
): Promise<ChainHead> {
  if (size === 0) return { seq: 0, hash: GENESIS_HASH };
  const [event] = await services.store.activity.list({
    organizationId: organization.id,
    afterSeq: size - 1,
    oldestFirst: true,
    limit: 1,
  });
  if (event?.seq !== size) {
    throw new LatchkeyError('invalid_request', 'The log has fewer events than tree_size.', {
      details: [{ path: 'query.tree_size', message: 'past the end of the log' }],
    });
  }
  return { seq: event.seq, hash: event.hash };
}

/** The signed checkpoint of the organization's current head (or of its first `treeSize` events), its note and the cosignatures kept for it. */
export async function checkpointView(
  services: Pick<CheckpointDeps, 'store' | 'now' | 'checkpointOrigin'>,
  key: AuditKey,
  organization: Organization,
  treeSize?: number,
): Promise<CheckpointView> {
  const { store } = services;
  const head =
    treeSize === undefined
      ? await chainHead(store, organization.id)
      : await headAt(services, organization, treeSize);
  // The tree over exactly the events the JSON checkpoint covers, whatever is appended meanwhile.
  const tree = await treeHeadOf(store, organization.id, head.seq);
  if (!tree) throw new Error('The activity log is shorter than its own head.');
  const origin = checkpointOriginLine(services.checkpointOrigin, organization.slug);
  const signed = await signCheckpointNote(key, origin, tree);
  const rootHash = toBase64(tree.rootHash);
  const cosignatures = await store.witnesses.cosignatures(organization.id, tree.size, rootHash);
  // The JSON signs the tree's size and root too, as the proof routes' checkpoints do, and the
  // organization's note key, so the audit key vouches for it.
  const json = signCheckpoint(
    {
      organization: organization.slug,
      ...head,
      tree_size: tree.size,
      root_hash: rootHash,
      verifier_key: signed.verifierKey,
    },
    key,
    new Date(services.now()).toISOString(),
  );
  return {
    ...json,
    tree_size: tree.size,
    root_hash: rootHash,
    verifier_key: signed.verifierKey,
    note: `${signed.body}\n${signed.signatureLine}${cosignatures.map((c) => `${c.line}\n`).join('')}`,
    cosignatures: cosignatures.map((c) => ({ witness: c.witness, timestamp: c.timestamp })),
  };
}

/**
 * The organization's signed head ({@link checkpointView}) under the host's audit key, after
 * `treeSize` events when given: 404 `not_found` on a server that holds no audit key.
 */
export function signedCheckpoint(
  deps: Pick<CheckpointDeps, 'store' | 'now' | 'checkpointOrigin'> & { auditKey: AuditKey | undefined },
  organization: Organization,
  treeSize?: number,
): Promise<CheckpointView> {
  requireAuditKey(deps);
  return checkpointView(deps, deps.auditKey!, organization, treeSize);
}
