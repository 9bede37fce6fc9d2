/**
 * The Merkle proofs of the activity log (RFC 6962): an event's inclusion in a tree head, one tree
 * head's consistency with a later one, and one event with its proof against the latest checkpoint.
 */
import { eventWithProof } from '../activity/event-proof.js';
import { proveConsistency, proveInclusion } from '../activity/tree-proofs.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { RouteContext } from '../http/router.js';
import {
  ConsistencyProofQuery,
  ConsistencyProofResponse,
  EventProofResponse,
  InclusionProofQuery,
  InclusionProofResponse,
  treePosition,
} from '../schemas/proofs.js';
import { answers } from './docs.js';
import { ORGANIZATION } from './paths.js';
import { routeGroup } from './route-group.js';

const ACTIVITY = `${ORGANIZATION}/activity`;

/** The routes of the activity log's proofs: tagged Activity, for holders of activity:read_organization. */
const proofRoute = routeGroup({ tag: 'Activity', permission: 'activity:read_organization' });

/** The event seq the path names, or a 400 unless it is a positive integer. */
function seqParam(ctx: RouteContext): number {
  const parsed = treePosition('the event').safeParse(ctx.params['seq']);
  if (!parsed.success) {
    throw new LatchkeyError('invalid_request', 'The event seq must be a positive integer.', {
      details: [{ path: 'path.seq', message: 'a positive integer' }],
    });
  }
  return parsed.data;
}

export const proofRoutes = [
  proofRoute('GET', `${ACTIVITY}/proofs/inclusion`, {
    operationId: 'getActivityInclusionProof',
    summary:
      'The RFC 6962 audit path of event seq (leaf index seq - 1) in the Merkle tree of tree_size events (default: the latest). Hashes are standard base64.',
    query: InclusionProofQuery,
    responses: answers(200, 'The inclusion proof', InclusionProofResponse),
    async handler(ctx) {
      const { seq, tree_size } = ctx.query;
      return {
        status: 200,
        body: await proveInclusion(ctx.deps.store, ctx.organization.id, seq, tree_size),
      };
    },
  }),
  proofRoute('GET', `${ACTIVITY}/proofs/consistency`, {
    operationId: 'getActivityConsistencyProof',
    summary:
      'The RFC 6962 consistency proof that the Merkle tree of `to` events (default: the latest) extends the tree of `from` events. Hashes are standard base64.',
    query: ConsistencyProofQuery,
    responses: answers(200, 'The consistency proof', ConsistencyProofResponse),
    async handler(ctx) {
      const { from, to } = ctx.query;
      return { status: 200, body: await proveConsistency(ctx.deps.store, ctx.organization.id, from, to) };
    },
  }),
  proofRoute('GET', `${ACTIVITY}/events/{seq}`, {
    operationId: 'getActivityEventWithProof',
    summary:
      'One event, its inclusion proof against the latest tree head, and that head signed as a checkpoint (null without an audit key) carrying the same head as a C2SP checkpoint note with its cosignatures (note, verifier_key, cosignatures), so the event is checkable offline, by Go’s note.Open and tlog.CheckRecord too.',
    responses: answers(200, 'The event and its proof', EventProofResponse),
    async handler(ctx) {
      return { status: 200, body: await eventWithProof(ctx.deps, ctx.organization, seqParam(ctx)) };
    },
  }),
];
