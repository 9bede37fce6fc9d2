/** `GET …/activity/checkpoint`: the organization's chain head, signed with the host's audit key. */

import { signTreeHead, treeChainHead } from '../activity/tree-checkpoint.js';
import { LatchkeyError } from '../http/errors.js';
import { defineRoute } from '../http/router.js';
import { CheckpointResponse } from '../schemas/api.js';
import { answers } from './docs.js';
import { ORGANIZATION } from './paths.js';

export const checkpointRoutes = [
  defineRoute({
    method: 'GET',
    path: `${ORGANIZATION}/activity/checkpoint`,
    operationId: 'getActivityCheckpoint',
    summary:
      'The current head of the activity chain, signed with the audit key (Ed25519 over the JCS of the record without signature and public_key). 404 when the host supplies no audit key.',
    tag: 'Activity',
    permission: 'activity:read_organization',
    responses: answers(200, 'The signed head', CheckpointResponse),
    async handler(ctx) {
      const key = ctx.services.auditKey;
      if (!key) throw new LatchkeyError('not_found', 'Signed checkpoints are not enabled on this server.');
      const head = await treeChainHead(ctx.services.store, ctx.organization.id);
      return { status: 200, body: signTreeHead(ctx.organization.slug, head, key, ctx.services.now()) };
    },
  }),
];
