/**
 * One event with its evidence: its inclusion proof against the latest tree head, and that head
 * signed as a checkpoint (with its C2SP note and cosignatures), so the event is checkable offline.
 */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ActivityEvent, Organization } from '../model/model.js';
import type { AuditKey, Checkpoint } from './checkpoint/checkpoint.js';
import type { CheckpointDeps } from './checkpoint/checkpoint-deps.js';
import type { CheckpointView } from './checkpoint/checkpoint-view.js';
import { notedTreeHead, treeChainHead } from './checkpoint/tree-checkpoint.js';
import { eventAt, proveInclusion } from './tree-proofs.js';

/** What the event's evidence is read and signed with. */
export interface EventProofDeps extends CheckpointDeps {
  /** Signs the checkpoint; without one, the answer carries none. */
  auditKey: AuditKey | undefined;
}

/** The event, its inclusion proof, and the checkpoint the proof is against (null without an audit key). */
export interface EventWithProof {
  event: ActivityEvent;
  proof: Awaited<ReturnType<typeof proveInclusion>>;
  checkpoint: Checkpoint | CheckpointView | null;
}

/** Event `seq` of the organization with its proof, or a 404 while the signed tree does not hold it. */
export async function eventWithProof(
  deps: EventProofDeps,
  organization: Organization,
  seq: number,
): Promise<EventWithProof> {
  const { store, auditKey } = deps;
  const head = await treeChainHead(store, organization.id);
  // An event appended after the head was read is not in the tree the checkpoint signs: not yet found.
  if (seq > (head.tree_size ?? head.seq)) {
    throw new LatchkeyError('not_found', `There is no event ${seq}.`);
  }
  const event = await eventAt(store, organization.id, seq);
  // The proof is against the head the checkpoint signs (the tree's own size while it is back-filled).
  const proof = await proveInclusion(store, organization.id, event.seq, head.tree_size ?? undefined);
  const checkpoint = auditKey ? await notedTreeHead(deps, auditKey, organization, head) : null;
  return { event, proof, checkpoint };
}
