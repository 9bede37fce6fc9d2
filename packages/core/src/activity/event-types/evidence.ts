/** Event types of the evidence trail: exports and backups of the activity log, and its witnesses. */
import { z } from 'zod';
import { Count, entry, Role, Slug, Time } from './shared.js';
import { witnessEventTypes } from './witnesses.js';

const Counts = z.strictObject({
  project: Count,
  environment: Count,
  secret: Count,
  deleted_secret: Count,
  secret_version: Count,
  member: Count,
  device: Count,
  audit_webhook: Count,
  workload_identity: Count.optional().describe(
    'absent from events recorded before backups carried identities',
  ),
  change_request: Count.optional().describe(
    'absent from events recorded before backups carried change requests',
  ),
  event: Count,
});

const Checkpoint = z.strictObject({
  organization: Slug,
  seq: z.int().min(0),
  hash: z.string(),
  tree_size: z.int().min(0).optional(),
  root_hash: z.string().optional(),
  signed_at: Time,
  key_id: z.string(),
  public_key: z.string(),
  signature: z.string(),
});

export const evidenceEventTypes = {
  activity_exported: entry(
    'The activity log was exported (recorded after the stream ended)',
    z.strictObject({
      format: z.enum(['ndjson', 'csv']),
      events: Count,
      first_seq: z.int().nullable(),
      last_seq: z.int().nullable(),
      chain_seq: z.int().min(0),
      filter: z.strictObject({
        types: z.array(z.string()).nullable(),
        since: Time.nullable(),
        until: Time.nullable(),
      }),
    }),
  ),
  backup_created: entry(
    'A backup of the organization was streamed',
    z.strictObject({ counts: Counts, chain_seq: z.int().min(0) }),
  ),
  backup_restored: entry(
    "A backup replaced the organization's content; names its source and the checkpoint that vouched for it",
    z.strictObject({
      counts: Counts,
      source: z.strictObject({
        organization: Slug,
        created_at: Time,
        chain: z.strictObject({ seq: z.int().min(0), hash: z.string() }),
        checkpoint: Checkpoint,
        key_id: z.string(),
        key: z.enum(['own', 'trusted']),
      }),
      replaced_chain: z
        .strictObject({ seq: z.int().min(1), hash: z.string() })
        .nullable()
        .describe('the head of the log the restore replaced; null when it was empty'),
      force: z.boolean(),
      restorer_added: z.boolean(),
      restorer: z.strictObject({ user: z.string(), role_in_backup: Role.nullable(), role: Role }),
    }),
  ),
  ...witnessEventTypes,
};
