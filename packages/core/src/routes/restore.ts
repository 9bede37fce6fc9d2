/**
 * Restoring a backup, staged because a backup is larger than one request may be: `POST …/restores`
 * begins with the manifest (SHA-256, length, counts), `PUT …/restores/{restore}/parts/{part}` sends
 * the content in order, in parts of whole lines that each fit the body limit, and `POST
 * …/restores/{restore}/commit` checks all of it against the manifest and applies it in one
 * transaction, recorded as `backup_restored`. Parts are sealed with the keyring while staged (they
 * hold secret values in clear) and dropped when the restore is applied, abandoned or expires.
 * Owners only (backup:restore); a session is its creator's alone.
 */
import { z } from 'zod';
import { BackupCountsSchema, BackupManifestSchema } from '../backup/backup-records.js';
import { applyRestore, isEmptyOrganization, notEmpty, partContext } from '../backup/restore-apply.js';
import { noTrustedKeys } from '../backup/restore-history.js';
import { LatchkeyError } from '../errors.js';
import { seal } from '../keyring.js';
import { defineRoute, type RouteContext } from '../router.js';
import type { RestoreSession } from '../store/types.js';
import { commonErrors, error } from './docs.js';

const RESTORES = '/organizations/{organization}/restores';
const RESTORE = `${RESTORES}/{restore}`;
/** How long a staged restore is kept: time enough to send a large backup over a slow link. */
const SESSION_MS = 2 * 60 * 60 * 1000;

const BeginRestoreBody = z.strictObject({
  manifest: BackupManifestSchema,
  force: z.boolean().optional().describe('replace the content of an organization that is not empty'),
});
const RestoreSessionResponse = z.strictObject({ id: z.string(), expires_at: z.string() });
const PartBody = z.strictObject({
  data: z.string().min(1).describe('the next whole lines of the backup content'),
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
  'backup_invalid: the content does not match its manifest, is cut short, or a line is malformed or out of place; a record breaks a rule the API enforces at create (an id outside its format, a name with control characters, a webhook URL the SSRF check refuses, an event time that is not RFC 3339, a duplicate event id); or the history is not vouched for (no signed checkpoint, one signed by a key this server does not trust or not matching the chain head, events naming another organization). The message names the line. Nothing was written.',
);
const unavailableError = error(
  'service_unavailable: the store is unreachable or too slow right now (Retry-After says when to try again); or this server trusts no audit key (core options auditKey, trustedAuditKeys), or the backup holds audit webhooks and the server has no keyring',
);

/** The caller's own staged restore named in the path, or a 404. */
async function sessionOf(ctx: RouteContext): Promise<RestoreSession> {
  const session = await ctx.services.store.restores.get(ctx.organization.id, ctx.params['restore']!, ctx.at);
  if (!session || session.user !== ctx.principal.user) {
    throw new LatchkeyError('not_found', 'The restore was not found (or it has expired).');
  }
  return session;
}

export const restoreRoutes = [
  defineRoute<typeof BeginRestoreBody._zod.output>({
    method: 'POST',
    path: RESTORES,
    operationId: 'beginRestore',
    summary:
      'Begin restoring a backup: give the manifest of its content (SHA-256, length in bytes, counts). Refused for an organization that is not empty unless force is true. Owners only (backup:restore).',
    tag: 'Backup',
    permission: 'backup:restore',
    body: BeginRestoreBody,
    responses: {
      201: { description: 'Send the parts, then commit', schema: RestoreSessionResponse },
      409: notEmptyError,
      ...commonErrors,
      503: unavailableError,
    },
    async handler(ctx) {
      const { store } = ctx.services;
      // Said before the parts are sent: without a key to check the checkpoint, no commit could apply.
      if (ctx.services.trustedAuditKeys.size === 0) throw noTrustedKeys();
      const force = ctx.body.force ?? false;
      if (!force && !(await isEmptyOrganization(store, ctx.organization.id, ctx.principal.user))) {
        throw notEmpty();
      }
      const session: RestoreSession = {
        id: ctx.services.ids('rst'),
        organization_id: ctx.organization.id,
        user: ctx.principal.user,
        manifest: ctx.body.manifest,
        force,
        created_at: ctx.at,
        expires_at: new Date(Date.parse(ctx.at) + SESSION_MS).toISOString(),
      };
      await store.restores.begin(session, ctx.at);
      return { status: 201, body: { id: session.id, expires_at: session.expires_at } };
    },
  }),

  defineRoute<typeof PartBody._zod.output>({
    method: 'PUT',
    path: `${RESTORE}/parts/{part}`,
    operationId: 'putRestorePart',
    summary:
      'Send part {part} (0, 1, 2, … in order) of the backup content: whole lines, within the body limit. Sending a part again replaces it.',
    tag: 'Backup',
    permission: 'backup:restore',
    body: PartBody,
    responses: { 200: { description: 'Stored', schema: PartResponse }, ...commonErrors },
    async handler(ctx) {
      const session = await sessionOf(ctx);
      const index = Number(ctx.params['part']);
      const { keyring, store } = ctx.services;
      const data = keyring ? seal(keyring, ctx.body.data, partContext(session.id, index)) : ctx.body.data;
      await store.restores.putPart(session.id, index, data);
      return { status: 200, body: { part: index, bytes: Buffer.byteLength(ctx.body.data) } };
    },
  }),

  defineRoute({
    method: 'POST',
    path: `${RESTORE}/commit`,
    operationId: 'commitRestore',
    summary:
      'Check the whole content against the manifest (SHA-256, length, counts, every line, the activity chain), hold every record to the rules of create (ids, names, webhook URLs through the SSRF check), and take the history in only under the backup’s signed checkpoint, verified with this server’s audit key or one listed in trustedAuditKeys, with every event naming the backup’s organization; then replace the organization’s content with it in one transaction: projects, environments, secrets with their versions, members and grants, devices, audit webhooks (signing secrets sealed with this server’s keyring) and the activity log, followed by a backup_restored event naming the source organization, its checkpoint and key id. The restorer stays an owner whatever the backup says.',
    tag: 'Backup',
    permission: 'backup:restore',
    responses: {
      200: { description: 'Restored', schema: RestoredResponse },
      409: notEmptyError,
      422: invalidError,
      ...commonErrors,
      503: unavailableError,
    },
    async handler(ctx) {
      const { store, keyring, ids, trustedAuditKeys, webhooks } = ctx.services;
      await sessionOf(ctx);
      const result = await store.transaction(async (tx) => {
        // Read again inside the transaction (locking it where the store can), so two commits of one
        // session cannot both apply it.
        const session = await tx.restores.get(ctx.organization.id, ctx.params['restore']!, ctx.at);
        if (!session) throw new LatchkeyError('not_found', 'The restore was not found (or it has expired).');
        return applyRestore(tx, {
          session,
          organizationId: ctx.organization.id,
          user: ctx.principal.user,
          keyring,
          trustedAuditKeys,
          webhooks,
          ids,
          at: ctx.at,
          draft: (type, data) => ctx.draft(type, data),
        });
      });
      return {
        status: 200,
        body: { restored: result.counts, event: { id: result.event.id, seq: result.event.seq } },
      };
    },
  }),

  defineRoute({
    method: 'DELETE',
    path: RESTORE,
    operationId: 'abandonRestore',
    summary: 'Abandon a staged restore: its parts are dropped and nothing is written.',
    tag: 'Backup',
    permission: 'backup:restore',
    responses: {
      200: { description: 'Dropped', schema: z.strictObject({ id: z.string() }) },
      ...commonErrors,
    },
    async handler(ctx) {
      const session = await sessionOf(ctx);
      await ctx.services.store.restores.end(session.id);
      return { status: 200, body: { id: session.id } };
    },
  }),
];
