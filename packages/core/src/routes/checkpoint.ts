/** `GET …/activity/checkpoint`: the organization's chain head, signed with the host's audit key. */

import { signedCheckpoint } from '../activity/checkpoint/checkpoint-view.js';
import { prefersPlainText } from '../http/accept.js';
import { defineRoute } from '../http/router.js';
import { CheckpointQuery, CheckpointResponse } from '../schemas/api.js';
import { answers } from './docs.js';
import { ORGANIZATION } from './paths.js';

/** The media type of a bare checkpoint note. */
const NOTE_TYPE = 'text/plain; charset=utf-8';

export const checkpointRoutes = [
  defineRoute<undefined, { tree_size?: number | undefined }>('GET', `${ORGANIZATION}/activity/checkpoint`, {
    operationId: 'getActivityCheckpoint',
    summary:
      'The current head of the activity chain, signed with the audit key (Ed25519 over the JCS of the record without signature and public_key), with the same head as a C2SP checkpoint note (note, tree_size, root_hash, verifier_key) carrying every cosignature its witnesses sent for it. With tree_size, the same for the head after that many events (an earlier head, as witnesses cosigned it). With Accept: text/plain (weighed above application/json), the note alone as text/plain; charset=utf-8. 404 when the host supplies no audit key.',
    tag: 'Activity',
    permission: 'activity:read_organization',
    query: CheckpointQuery,
    responses: {
      ...answers(200, 'The signed head', CheckpointResponse),
      200: {
        description: 'The signed head (JSON), or with Accept: text/plain the C2SP note alone',
        schema: CheckpointResponse,
        mediaTypes: ['text/plain'],
      },
    },
    async handler(ctx) {
      const view = await signedCheckpoint(ctx.deps, ctx.organization, ctx.query.tree_size);
      if (prefersPlainText(ctx.request.headers)) {
        return {
          response: {
            status: 200,
            headers: { 'content-type': NOTE_TYPE, 'cache-control': 'no-store', vary: 'Accept' },
            body: view.note,
          },
        };
      }
      return { status: 200, body: view, headers: { vary: 'Accept' } };
    },
  }),
];
