/**
 * `GET /organizations/{organization}/backup`: everything needed to rebuild the organization
 * (projects, environments, live secrets with their versions and deleted keys with their tombstone
 * versions, members and grants, devices, audit webhooks with their signing secrets, workload
 * identities, the open change requests with their values, the activity log
 * with its chain), streamed as NDJSON for the client to encrypt (`latchkey backup create` makes an age file of it). Recorded as one
 * `backup_created` event once the stream has ended, with what it held.
 */

import type { AuditKey } from '../activity/checkpoint/checkpoint.js';
import { signTreeHead, treeChainHead } from '../activity/checkpoint/tree-checkpoint.js';
import { inBackupSlot } from '../backup/backup-slots.js';
import { backupLines } from '../backup/backup-stream.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { defineRoute, type RouteContext } from '../http/router.js';
import * as views from '../http/views.js';
import { type BackupCounts, emptyBackupCounts } from '../model/backup-format.js';
import type { CoreResponse } from '../model/core-request.js';
import type { StoreTransaction } from '../store/types.js';
import { commonErrors, error } from './docs.js';
import { ORGANIZATION } from './paths.js';

/** The backup's lines as `view` reads them, from the chain head it reads first; fills `counts`. */
async function* contentOf(
  ctx: RouteContext,
  key: AuditKey,
  view: StoreTransaction,
  counts: BackupCounts,
  covered: { seq: number },
) {
  // The head the backup covers with its tree's root, signed: restore takes the history in only
  // under this checkpoint, and only when the tree its events rebuild has this root.
  const treeHead = await treeChainHead(view, ctx.organization.id);
  const checkpoint = signTreeHead(ctx.organization.slug, treeHead, key, ctx.deps.now());
  const head = { seq: treeHead.seq, hash: treeHead.hash };
  covered.seq = head.seq;
  yield* backupLines(view, ctx.deps.keyring, ctx.organization, head, checkpoint, ctx.at, counts, views);
}

/**
 * The backup, read in one snapshot where the store offers one (so a push meanwhile is wholly in
 * it or wholly out), then `backup_created`.
 */
async function* withEvent(ctx: RouteContext, key: AuditKey) {
  const { store } = ctx.deps;
  const counts = emptyBackupCounts();
  const covered = { seq: 0 };
  const read = (view: StoreTransaction) => contentOf(ctx, key, view, counts, covered);
  yield* store.snapshot ? store.snapshot(ctx.organization.id, read) : read(store);
  await store.activity.append(
    ctx.organization.id,
    ctx.event('backup_created', { counts, chain_seq: covered.seq }),
  );
}

export const backupRoutes = [
  defineRoute('GET', `${ORGANIZATION}/backup`, {
    operationId: 'createBackup',
    summary:
      'The organization as NDJSON for an encrypted backup: a latchkey_backup header line (format_version 4, with the chain head it covers and its signed checkpoint, as GET …/activity/checkpoint gives it, tree_size and root_hash included), then project, environment, secret (live, with value and version), deleted_secret (a deleted key with its tombstone version, no value), secret_version (each version of each key: version, deleted, occurred_at, actor, device_id, event_id, and value while it is kept), member, device (enrolled ones; never a workload’s ephemeral device), audit_webhook (with signing_secret), workload_identity (never its tokens or exchanged jtis) and change_request lines (each request still open or approved, with its changes’ if_version and values and its approvals), then an events line followed by the activity log as the export writes it. Owners and admins (backup:create). Needs the host’s audit key: without one, 503.',
    tag: 'Backup',
    permission: 'backup:create',
    responses: {
      200: {
        mediaTypes: ['application/x-ndjson'],
        description:
          'The backup content, in clear: encrypt it before storing it (the CLI writes an age file).',
      },
      ...commonErrors,
      409: error('limit_exceeded: a backup of this organization is being streamed (one at a time)'),
      503: error(
        'service_unavailable: the store is unreachable or too slow right now, or this server streams its most backups at once (4; Retry-After says when to try again), or the host supplies no audit key (core option auditKey), without which a backup’s history could never be restored',
      ),
    },
    async handler(ctx) {
      const key = ctx.deps.auditKey;
      if (!key) {
        throw new LatchkeyError(
          'service_unavailable',
          'Backups need an audit key (core option auditKey): a restore takes a backup’s activity history in only under its signed checkpoint.',
        );
      }
      const stamp = ctx.at.replace(/[:.]/g, '-');
      const response: CoreResponse = {
        status: 200,
        headers: {
          'content-type': 'application/x-ndjson; charset=utf-8',
          'content-disposition': `attachment; filename="${ctx.organization.slug}-backup-${stamp}.ndjson"`,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        },
        // One backup of an organization at a time, and a few in all: each may hold a connection.
        body: inBackupSlot(ctx.deps.store, ctx.organization.id, ctx.deps.now(), withEvent(ctx, key)),
      };
      return { response };
    },
  }),
];
