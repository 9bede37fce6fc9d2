/** The schemas of the evidence trail: history, export and checkpoints. */
import { z } from 'zod';
import { pageCursor, pageLimit, pageOf } from './list.js';
import { Rfc3339, text } from './text.js';

/** Query of the history endpoints. */
export const HistoryQuery = z.strictObject({
  limit: pageLimit(500),
  cursor: pageCursor(/^[A-Za-z0-9_-]{1,64}$/),
  type: text()
    .regex(/^[a-z][a-z0-9_]{0,63}(,[a-z][a-z0-9_]{0,63}){0,49}$/, 'a comma-separated list of event types')
    .optional(),
  since: Rfc3339.optional().describe('inclusive'),
  until: Rfc3339.optional().describe('exclusive'),
});

/** A stored activity event, as history and export show it. */
export const ActivityEventSchema = z.strictObject({
  id: z.string(),
  type: z.string(),
  occurred_at: z.string(),
  organization: z.string(),
  project: z.string().optional(),
  environment: z.string().optional(),
  actor: z.strictObject({ type: z.enum(['user', 'system', 'workload']), id: z.string() }),
  device_id: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
  seq: z.number().int(),
  prev_hash: z.string(),
  hash: z.string(),
});

/** A page of history, newest first. */
export const HistoryResponse = pageOf('events', ActivityEventSchema);

/** Query of the activity export. */
export const ExportQuery = z.strictObject({
  format: z.enum(['ndjson', 'csv']).optional().describe('default ndjson'),
  type: HistoryQuery.shape.type,
  since: HistoryQuery.shape.since,
  until: HistoryQuery.shape.until,
});

/** Query of the checkpoint: an earlier tree head, whose note carries the cosignatures witnesses sent for it. */
export const CheckpointQuery = z.strictObject({
  tree_size: text()
    .regex(/^(0|[1-9][0-9]{0,14})$/, 'a non-negative integer')
    .transform(Number)
    .pipe(z.number().int().min(0))
    .optional()
    .describe('a past tree head (number of events); default the current head'),
});

/** A signed checkpoint as exports and proofs carry it: the tree fields when the tree is at the head. */
export const SignedCheckpoint = z.strictObject({
  organization: z.string(),
  seq: z.number().int(),
  hash: z.string(),
  tree_size: z.number().int().optional().describe('The Merkle tree size at this head (equal to seq); signed'),
  root_hash: z.string().optional().describe('RFC 6962 root hash of the tree, standard base64; signed'),
  signed_at: z.string(),
  key_id: z.string(),
  public_key: z.string().describe('Raw Ed25519 key, base64url; pin it out of band'),
  signature: z.string(),
});

export const CheckpointResponse = SignedCheckpoint.extend({
  tree_size: z.number().int().describe('The Merkle tree size the note names: the events up to seq; signed'),
  root_hash: z
    .string()
    .describe('The RFC 6962 root hash of the first tree_size events, standard base64; signed'),
  verifier_key: z
    .string()
    .describe(
      'The C2SP verifier key of the note: <origin line>+<hex key hash>+<base64(0x01 || note key)>, as Go’s note.NewVerifier takes it; the note key is the organization’s own (derived from the audit key and the origin line), and this field is signed with the audit key',
    ),
  note: z
    .string()
    .describe(
      'The C2SP tlog-checkpoint body (origin line, tree size, base64 root hash) in a C2SP signed note, signed with the organization’s note key (see verifier_key) under the origin line, followed by every registered witness’s cosignature collected for this tree head',
    ),
  cosignatures: z
    .array(z.strictObject({ witness: z.string(), timestamp: z.number().int() }))
    .describe('The witnesses whose cosignatures the note carries, and their POSIX timestamps'),
});

/**
 * The checkpoint one event's proof and the export's last line carry: the signed head and, whenever
 * the tree is at it, the same head's note, so either is checked offline (absent only while an older
 * log's tree is being back-filled).
 */
export const NotedCheckpoint = SignedCheckpoint.extend({
  verifier_key: CheckpointResponse.shape.verifier_key.optional(),
  note: CheckpointResponse.shape.note.optional(),
  cosignatures: CheckpointResponse.shape.cosignatures.optional(),
});
