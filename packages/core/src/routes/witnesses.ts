/**
 * The transparency log's witnesses (owner only: they decide who vouches for the log against the
 * operator) and the cosignatures they post for its tree heads.
 */

import { acceptCosignature } from '../activity/cosign.js';
import { addWitness, removeWitness } from '../activity/witness-changes.js';
import { toWitnessView } from '../activity/witness-keys.js';
import { LIMIT_DEFAULTS } from '../model/limits.js';
import { listOf } from '../schemas/api.js';
import {
  CosignatureBody,
  CosignatureResponse,
  CreateWitnessBody,
  WitnessResponse,
} from '../schemas/witnesses.js';
import { answers, error } from './docs.js';
import { listing } from './list-route.js';
import { ORGANIZATION } from './paths.js';
import { routeGroup } from './route-group.js';
import { pathParam, serviceCall, theBody } from './service-call.js';

const WITNESSES = `${ORGANIZATION}/activity/witnesses`;
const witnessRoute = routeGroup({ tag: 'Activity', permission: 'activity:manage_witnesses' });

export const witnessRoutes = [
  witnessRoute('POST', WITNESSES, {
    operationId: 'addWitness',
    summary: `Register a witness (owner only): a C2SP note key name and its Ed25519 public key. From then on its tlog-cosignature/v1 cosignatures of this log's tree heads are kept and served in the checkpoint note. At most limits.witnessesPerOrganization (default ${LIMIT_DEFAULTS.witnessesPerOrganization}, a bound on what each cosignature check reads): one more is 409 limit_exceeded. Recorded as witness_added.`,
    body: CreateWitnessBody,
    responses: answers(201, 'Registered', WitnessResponse, {
      409: error(
        'already_exists: a witness of that name or public key is registered; or limit_exceeded: the organization has as many witnesses as the server allows',
      ),
    }),
    handler: serviceCall(addWitness, theBody, toWitnessView, 201),
  }),

  witnessRoute('GET', WITNESSES, {
    operationId: 'listWitnesses',
    summary: 'The registered witnesses, by name (owner only).',
    ...listing('witnesses', WitnessResponse, toWitnessView, (ctx) =>
      ctx.deps.store.witnesses.list(ctx.organization.id),
    ),
  }),

  witnessRoute('DELETE', `${WITNESSES}/{witness}`, {
    operationId: 'removeWitness',
    summary: 'Remove a witness and the cosignatures it sent (owner only); recorded as witness_removed.',
    responses: answers(200, 'Removed', WitnessResponse),
    handler: serviceCall(removeWitness, pathParam('witness'), toWitnessView),
  }),

  routeGroup({ tag: 'Activity', permission: 'activity:read_organization' })(
    'POST',
    `${ORGANIZATION}/activity/checkpoint/cosignatures`,
    {
      operationId: 'addCheckpointCosignature',
      summary:
        'Post a witness cosignature (C2SP tlog-cosignature/v1) of one of this log’s tree heads: a signature line with the checkpoint body it signs (default: the current head), or the whole cosigned note. Kept only when a registered witness signed a head this log had (its origin line, size and root hash), with a timestamp at most 5 minutes ahead; kept per tree head, the newest per witness, for the 16 largest heads. Any credential that may read the organization’s checkpoint may post: the cosignature authenticates itself. Not recorded as an event (that would move the head it signs).',
      body: CosignatureBody,
      responses: answers(200, 'Kept', listOf('cosignatures', CosignatureResponse), {
        422: error(
          'cosignature_invalid: not a note signature line or cosigned note, a checkpoint that is not one of this log’s tree heads, or no line is a registered witness’s valid cosignature',
        ),
      }),
      async handler(ctx) {
        const kept = await acceptCosignature(ctx.deps, ctx.organization, ctx.body);
        return {
          status: 200,
          body: {
            cosignatures: kept.map((c) => ({
              witness: c.witness,
              tree_size: c.tree_size,
              root_hash: c.root_hash,
              timestamp: c.timestamp,
            })),
          },
        };
      },
    },
  ),
];
