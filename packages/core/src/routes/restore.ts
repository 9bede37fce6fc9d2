/**
 * Restoring a backup, staged because a backup is larger than one request may be: `POST …/restores`
 * begins with the manifest (SHA-256, length, counts), `PUT …/restores/{restore}/parts/{part}` sends
 * the content in order, in parts that each fit the body limit, and `POST …/restores/{restore}/commit`
 * checks all of it against the manifest and applies it in one transaction, recorded as
 * `backup_restored`. Parts are sealed with the keyring while staged (they hold secret values in
 * clear) and dropped when the restore is applied, fails, is abandoned or expires. A restore holds no
 * more than its manifest declares, within the server's limits (`backup/restore/limits.ts`), and an
 * organization has one open at a time. Owners only (backup:restore); a session is its creator's alone.
 */
import { z } from 'zod';
import { BackupCountsSchema, BackupManifestSchema } from '../backup/backup-records.js';
import { commitRestore } from '../backup/restore/commit.js';
import { abandonRestore, beginRestore, putRestorePart } from '../backup/restore/session.js';
import { text } from '../schemas/text.js';
import { answers, error } from './docs.js';
import { ORGANIZATION } from './paths.js';
import { routeGroup } from './route-group.js';

const RESTORES = `${ORGANIZATION}/restores`;
const RESTORE = `${RESTORES}/{restore}`;

const BeginRestoreBody = z.strictObject({
  manifest: BackupManifestSchema,
  force: z.boolean().optional().describe('replace the content of an organization that is not empty'),
});
const RestoreSessionResponse = z.strictObject({ id: z.string(), expires_at: z.string() });
const PartBody = z.strictObject({
  data: text().min(1).describe('the next piece of the backup content; a line may run on into the next part'),
});
const PartResponse = z.strictObject({ part: z.int(), bytes: z.int() });
const RestoredResponse = z.strictObject({
  restored: BackupCountsSchema,
  event: z.strictObject({ id: z.string(), seq: z.int() }),
});

const notEmptyError = error(
  'organization_not_empty: the organization has projects, devices, audit webhooks or other members, and force was not given',
);
const invalidError = error(
  'backup_invalid: the content does not match its manifest, is cut short, or a line is malformed, out of place or longer than the server reads (core option restores.maxLineBytes, default 16 MiB); a record breaks a rule the API enforces at create (an id outside its format, a name with control characters, a webhook URL the SSRF check refuses, an event time that is not RFC 3339, a duplicate event id); or the history is not vouched for (no signed checkpoint, one signed by a key this server does not trust or not matching the chain head, events naming another organization, a Merkle tree rebuilt from the events whose root is not the one the checkpoint signs). The message names the line. Nothing was written, and the staged restore is dropped.',
);
const unavailableError = error(
  'service_unavailable: the store is unreachable or too slow right now (Retry-After says when to try again); or this server trusts no audit key (core options auditKey, trustedAuditKeys), or the backup holds audit webhooks and the server has no keyring',
);
const inProgressError = error(
  'restore_in_progress: the organization already has a restore that is open (not committed, abandoned or expired); the message names it. Commit or abandon it first.',
);
const partInvalidError = error(
  'backup_invalid: the part would bring the parts to more bytes than the manifest declares, or its number is past what those bytes allow (a part holds a byte at least). The part is not stored.',
);
const tooLargeError = (what: string) =>
  error(`payload_too_large: the body is over the limit (default 1 MiB), or ${what}`);

/** The routes of a staged restore: tagged Backup, for holders of backup:restore (owners). */
const restoreRoute = routeGroup({ tag: 'Backup', permission: 'backup:restore' });

export const restoreRoutes = [
  restoreRoute<typeof BeginRestoreBody._zod.output>('POST', RESTORES, {
    operationId: 'beginRestore',
    summary:
      'Begin restoring a backup: give the manifest of its content (SHA-256, length in bytes, counts). Refused for an organization that is not empty unless force is true, and while the organization has another restore open (one at a time). Owners only (backup:restore).',
    body: BeginRestoreBody,
    responses: answers(201, 'Send the parts, then commit', RestoreSessionResponse, {
      409: error(`${notEmptyError.description}; or ${inProgressError.description}`),
      413: tooLargeError(
        'the manifest declares more bytes than this server restores (core option restores.maxParts parts within the body limit)',
      ),
      503: unavailableError,
    }),
    async handler(ctx) {
      const session = await beginRestore(ctx, ctx.body.manifest, ctx.body.force ?? false);
      return { status: 201, body: { id: session.id, expires_at: session.expires_at } };
    },
  }),

  restoreRoute<typeof PartBody._zod.output>('PUT', `${RESTORE}/parts/{part}`, {
    operationId: 'putRestorePart',
    summary:
      'Send part {part} (0, 1, 2, …) of the backup content, within the body limit; a line may run on into the next part. Sending a part again replaces it. The parts may hold no more bytes in all than the manifest declares, and numbers stop at the server maximum (core option restores.maxParts, default 10,000).',
    body: PartBody,
    responses: answers(200, 'Stored', PartResponse, {
      422: partInvalidError,
      413: tooLargeError('the part number is past the most parts this server takes in one restore'),
    }),
    async handler(ctx) {
      const index = Number(ctx.params['part']);
      const bytes = await putRestorePart(ctx, ctx.params['restore']!, index, ctx.body.data);
      return { status: 200, body: { part: index, bytes } };
    },
  }),

  restoreRoute('POST', `${RESTORE}/commit`, {
    operationId: 'commitRestore',
    summary:
      'Check the whole content against the manifest (SHA-256, length, counts, every line, the activity chain), hold every record to the rules of create (ids, names, webhook URLs and workload identities’ issuers through the SSRF check), and take the history in only under the backup’s signed checkpoint, verified with this server’s audit key or one listed in trustedAuditKeys, with every event naming the backup’s organization and, when the checkpoint signs a tree head (tree_size, root_hash), the RFC 6962 tree rebuilt from the events having that root (a checkpoint of an older backup signs the chain head only, whose hash covers every event); then replace the organization’s content with it in one transaction: projects, environments, secrets with their versions, members and grants, devices, audit webhooks (signing secrets sealed with this server’s keyring) and the activity log, followed by a backup_restored event naming the source organization, its checkpoint and key id. The restorer stays an owner whatever the backup says. A commit that fails drops the staged restore: begin again.',
    responses: answers(200, 'Restored', RestoredResponse, {
      409: notEmptyError,
      422: invalidError,
      503: unavailableError,
    }),
    async handler(ctx) {
      const result = await commitRestore(ctx, ctx.params['restore']!);
      return {
        status: 200,
        body: { restored: result.counts, event: { id: result.event.id, seq: result.event.seq } },
      };
    },
  }),

  restoreRoute('DELETE', RESTORE, {
    operationId: 'abandonRestore',
    summary: 'Abandon a staged restore: its parts are dropped and nothing is written.',
    responses: answers(200, 'Dropped', z.strictObject({ id: z.string() })),
    async handler(ctx) {
      const session = await abandonRestore(ctx, ctx.params['restore']!);
      return { status: 200, body: { id: session.id } };
    },
  }),
];
