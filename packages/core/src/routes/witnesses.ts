/**
 * The transparency log's witnesses (owner only: they decide who vouches for the log against the
 * operator) and the cosignatures they post for its tree heads.
 */

import { acceptCosignature } from '../activity/cosign.js';
import { isWeakEd25519Key } from '../activity/note/strict-ed25519.js';
import { toWitnessView, witnessPublicKey } from '../activity/witness-keys.js';
import { fromBase64 } from '../encoding/base64.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { LIMIT_DEFAULTS, refuseUncreated } from '../model/limits.js';
import { listOf } from '../schemas/api.js';
import {
  CosignatureBody,
  CosignatureResponse,
  CreateWitnessBody,
  WitnessResponse,
} from '../schemas/witnesses.js';
import { keyRefusal } from '../secrets/enrollment-key.js';
import { answers, error } from './docs.js';
import { listing } from './list-route.js';
import { ORGANIZATION } from './paths.js';
import { recordChange } from './record-change.js';
import { routeGroup } from './route-group.js';

const WITNESSES = `${ORGANIZATION}/activity/witnesses`;
const witnessRoute = routeGroup({ tag: 'Activity', permission: 'activity:manage_witnesses' });

/** Checkpoint features need the audit key: without it there is no tree head to witness. */
function requireAuditKey(services: { auditKey: unknown }): void {
  if (!services.auditKey)
    throw new LatchkeyError('not_found', 'Signed checkpoints are not enabled on this server.');
}

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
    async handler(ctx) {
      requireAuditKey(ctx.deps);
      const publicKey = await witnessPublicKey(ctx.body.name, ctx.body.public_key);
      if (!publicKey) {
        throw new LatchkeyError('invalid_request', 'The public key is not a witness key.', {
          details: [
            {
              path: 'body.public_key',
              message:
                'raw 32-byte Ed25519 key in standard base64, or a verifier key <name>+<hash>+<base64(0x04 || key)> of this name',
            },
          ],
        });
      }
      // The device-key check: a small-order key would make a forged cosignature verify.
      if (isWeakEd25519Key(fromBase64(publicKey)!)) throw keyRefusal('weak_key');
      const witness = {
        organization_id: ctx.organization.id,
        name: ctx.body.name,
        public_key: publicKey,
        created_at: ctx.at,
      };
      const view = await toWitnessView(witness);
      const max = ctx.deps.limits.witnessesPerOrganization;
      await recordChange(
        ctx,
        async (tx) =>
          refuseUncreated(
            await tx.witnesses.add(witness, max),
            'A witness of that name or public key is registered.',
            `An organization may register at most ${max} witnesses (limits.witnessesPerOrganization): remove one first.`,
          ),
        () =>
          ctx.event('witness_added', {
            name: view.name,
            public_key: view.public_key,
            verifier_key: view.verifier_key,
          }),
      );
      return { status: 201, body: view };
    },
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
    async handler(ctx) {
      const removed = await recordChange(
        ctx,
        async (tx) => {
          const witness = await tx.witnesses.remove(ctx.organization.id, ctx.params['witness']!);
          if (!witness) throw new LatchkeyError('not_found', 'No such witness.');
          return toWitnessView(witness);
        },
        (view) =>
          ctx.event('witness_removed', {
            name: view.name,
            public_key: view.public_key,
            verifier_key: view.verifier_key,
          }),
      );
      return { status: 200, body: removed };
    },
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
        requireAuditKey(ctx.deps);
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
