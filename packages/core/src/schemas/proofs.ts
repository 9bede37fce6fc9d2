/** The schemas of the Merkle proofs: inclusion, consistency, and one event with its proof. */
import { z } from 'zod';
import { ActivityEventSchema, NotedCheckpoint } from './activity.js';
import { text } from './text.js';

/** A tree position or size in a query or path: a positive integer, as text. */
export const treePosition = (what: string) =>
  text()
    .regex(/^[1-9][0-9]{0,15}$/, `${what}: a positive integer`)
    .transform(Number)
    .pipe(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER));

/** Query of the inclusion proof. */
export const InclusionProofQuery = z.strictObject({
  seq: treePosition('the event'),
  tree_size: treePosition('the tree size').optional().describe('default: the latest tree size'),
});

/** Query of the consistency proof. */
export const ConsistencyProofQuery = z.strictObject({
  from: treePosition('the earlier tree size'),
  to: treePosition('the later tree size').optional().describe('default: the latest tree size'),
});

const Hashes = z.array(z.string()).describe('RFC 6962 proof hashes, standard base64, in proof order');

/** An RFC 6962 audit path of one event (leaf index `seq - 1`). */
export const InclusionProofResponse = z.strictObject({
  leaf_index: z.number().int(),
  tree_size: z.number().int(),
  hashes: Hashes,
});

/** An RFC 6962 consistency proof between two tree sizes. */
export const ConsistencyProofResponse = z.strictObject({
  from: z.number().int(),
  to: z.number().int(),
  hashes: Hashes,
});

/** One event, its inclusion proof against the latest tree head, and that head's signed checkpoint and note. */
export const EventProofResponse = z.strictObject({
  event: ActivityEventSchema,
  proof: InclusionProofResponse,
  checkpoint: NotedCheckpoint.nullable().describe('null when the server has no audit key'),
});
