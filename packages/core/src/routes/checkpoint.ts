/** `GET …/activity/checkpoint`: the organization's chain head, signed with the host's audit key. */
import { chainHead } from '../activity-export/stream.js';
import { signCheckpoint } from '../checkpoint.js';
import { LatchkeyError } from '../errors.js';
import { defineRoute } from '../router.js';
import { CheckpointResponse } from '../schemas.js';
import { commonErrors } from './docs.js';

export const checkpointRoutes = [
  defineRoute({
    method: 'GET',
    path: '/organizations/{organization}/activity/checkpoint',
    operationId: 'getActivityCheckpoint',
    summary:
      'The current head of the activity chain, signed with the audit key (Ed25519 over the JCS of the record without signature and public_key). 404 when the host supplies no audit key.',
    tag: 'Activity',
    permission: 'activity:read_organization',
    responses: { 200: { description: 'The signed head', schema: CheckpointResponse }, ...commonErrors },
    async handler(ctx) {
      const key = ctx.services.auditKey;
      if (!key) throw new LatchkeyError('not_found', 'Signed checkpoints are not enabled on this server.');
      const head = await chainHead(ctx.services.store, ctx.organization.id);
      return {
        status: 200,
        body: signCheckpoint(
          { organization: ctx.organization.slug, ...head },
          key,
          new Date(ctx.services.now()).toISOString(),
        ),
      };
    },
  }),
];
