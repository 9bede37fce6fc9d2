/**
 * `GET /organizations/{organization}/backup`: everything needed to rebuild the organization
 * (projects, environments, live secrets with their versions and deleted keys with their tombstone
 * versions, members and grants, devices, audit webhooks with their signing secrets, workload
 * identities, the open change requests with their values, the activity log
 * with its chain), streamed as NDJSON for the client to encrypt (`latchkey backup create` makes an age file of it). Recorded as one
 * `backup_created` event once the stream has ended, with what it held (`backup/create-backup.ts`).
 */

import { createBackup } from '../backup/create-backup.js';
import { defineRoute } from '../http/router.js';
import * as views from '../http/views.js';
import type { CoreResponse } from '../model/core-request.js';
import { commonErrors, error } from './docs.js';
import { ORGANIZATION } from './paths.js';

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
      const body = createBackup(ctx.deps, ctx, views);
      const stamp = ctx.at.replace(/[:.]/g, '-');
      const response: CoreResponse = {
        status: 200,
        headers: {
          'content-type': 'application/x-ndjson; charset=utf-8',
          'content-disposition': `attachment; filename="${ctx.organization.slug}-backup-${stamp}.ndjson"`,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        },
        body,
      };
      return { response };
    },
  }),
];
