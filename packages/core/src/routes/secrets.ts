/** Signed pushes with optimistic concurrency, and pulls. */

import type { PushChange } from '../conflicts.js';
import { verifyClientSignature } from '../crypto.js';
import { isAcceptedEd25519Key } from '../ed25519-key-check.js';
import { LatchkeyError } from '../errors.js';
import { authorize } from '../permissions.js';
import { defineRoute, type RouteContext } from '../router.js';
import {
  ErrorResponse,
  IfVersionRequiredResponse,
  PushBody,
  type PushBodyInput,
  PushConflictResponse,
  PushResponse,
  SecretsResponse,
} from '../schemas.js';
import { openSecretValue, sealSecretValue } from '../secret-values.js';
import { commonErrors } from './docs.js';

const ENV = '/organizations/{organization}/projects/{project}/environments/{environment}';

/** A refusal already recorded in the activity log by the handler itself. */
function recorded(error: LatchkeyError): LatchkeyError {
  (error as { recorded?: boolean }).recorded = true;
  return error;
}

export const secretRoutes = [
  defineRoute({
    method: 'POST',
    path: `${ENV}/push`,
    operationId: 'push',
    summary: 'Push signed changes with optimistic concurrency. All changes apply, or none.',
    tag: 'Secrets',
    permission: 'secrets:push',
    body: PushBody,
    rejectedEvent: 'push_rejected',
    responses: {
      200: { description: 'Applied', schema: PushResponse },
      ...commonErrors,
      401: {
        description:
          'unauthenticated, or invalid_client_signature (bad client_sig or signed_at outside 300 s)',
        schema: ErrorResponse,
      },
      403: {
        description:
          'forbidden, device_unknown, device_revoked, device_not_owned, or device_key_invalid (the ' +
          'stored device key is of small or mixed order or non-canonical: enroll a new key)',
        schema: ErrorResponse,
      },
      409: {
        description: 'version_conflict (with conflicts[]) or push_replayed',
        schema: PushConflictResponse,
      },
      428: {
        description: 'if_version_required (strict mode; with keys[])',
        schema: IfVersionRequiredResponse,
      },
    },
    async handler(ctx) {
      return push(ctx);
    },
  }),

  defineRoute({
    method: 'GET',
    path: `${ENV}/secrets`,
    operationId: 'pullSecrets',
    summary: 'Pull the live secrets of an environment with their versions.',
    tag: 'Secrets',
    permission: 'secrets:read',
    responses: { 200: { description: 'Secrets', schema: SecretsResponse }, ...commonErrors },
    async handler(ctx) {
      const secrets = await ctx.services.store.secrets.listLive(ctx.environment!.id);
      return {
        status: 200,
        body: {
          secrets: secrets.map((s) => ({
            key: s.key,
            value:
              s.value === null
                ? null
                : openSecretValue(ctx.services.keyring, ctx.environment!.id, s.key, s.value),
            version: s.version,
            updated_at: s.updated_at,
          })),
        },
      };
    },
  }),
];

async function push(ctx: RouteContext<PushBodyInput>) {
  const { store, now, signatureToleranceSeconds } = ctx.services;
  const body = ctx.body;
  const organization = ctx.organization;
  const environment = ctx.environment!;

  const device = await store.devices.get(organization.id, body.device_id);
  if (!device) throw new LatchkeyError('device_unknown', 'The device is not enrolled in this organization.');
  if (device.status === 'revoked') throw new LatchkeyError('device_revoked', 'The device has been revoked.');
  if (device.user !== ctx.principal.user) {
    throw new LatchkeyError('device_not_owned', 'The device belongs to another member.');
  }
  // A key enrolled before weak keys were refused: with it any signature could verify, so refuse it
  // before looking at the signature at all.
  if (!isAcceptedEd25519Key(device.public_key)) {
    throw new LatchkeyError(
      'device_key_invalid',
      'The device key is a weak Ed25519 key and is no longer accepted; enroll a new device with a new key pair.',
    );
  }

  const nowMs = now();
  // signed_at is whole seconds, so compare whole seconds: the window is then +-tolerance inclusive
  // whatever the server's sub-second clock reads.
  if (Math.abs(Math.floor(nowMs / 1000) - body.signed_at) > signatureToleranceSeconds) {
    throw new LatchkeyError(
      'invalid_client_signature',
      `signed_at is more than ${signatureToleranceSeconds} seconds away from the server time.`,
    );
  }
  const address = {
    organization: organization.slug,
    project: ctx.project!.slug,
    environment: environment.slug,
  };
  if (
    !verifyClientSignature(device.public_key, ctx.json as Record<string, unknown>, address, body.client_sig)
  ) {
    throw new LatchkeyError('invalid_client_signature', 'client_sig does not verify with the device key.');
  }
  // Kept past the whole window in which signed_at is acceptable, so the nonce can never be used twice.
  const expiresAt = (body.signed_at + signatureToleranceSeconds) * 1000 + 60_000;
  const strict = body.conflict_mode === 'strict';
  if (environment.require_strict_conflict_mode && !strict) {
    throw new LatchkeyError('invalid_request', 'This environment requires conflict_mode "strict".', {
      details: [{ path: 'body.conflict_mode', message: 'must be "strict" in this environment' }],
    });
  }
  const force = body.force_overwrite === true;
  if (strict && force) {
    throw new LatchkeyError('invalid_request', 'force_overwrite is refused in strict conflict mode.', {
      details: [{ path: 'body.force_overwrite', message: 'not allowed with conflict_mode "strict"' }],
    });
  }
  if (strict) {
    const missing = body.changes.filter((c) => c.if_version === undefined).map((c) => c.key);
    if (missing.length > 0) {
      throw new LatchkeyError('if_version_required', 'Strict mode requires if_version on every change.', {
        extra: { keys: missing },
      });
    }
  }
  if (force && !authorize(ctx.principal, 'secrets:force_overwrite', address).ok) {
    throw new LatchkeyError('forbidden', 'force_overwrite needs the secrets:force_overwrite permission.');
  }

  const changes: PushChange[] = body.changes.map((c) => ({
    key: c.key,
    // Sealed at rest when the host supplies a keyring, bound to this environment and key.
    value:
      c.delete || c.value === undefined
        ? null
        : sealSecretValue(ctx.services.keyring, environment.id, c.key, c.value),
    if_version: c.if_version,
  }));
  const mode = strict ? 'strict' : 'lenient';
  // One unit of work: the nonce, every version and the event (or the conflict's event) together.
  const outcome = await store.transaction(async (tx) => {
    if (!(await tx.nonces.consume(`${organization.id}/${device.id}`, body.nonce, expiresAt, nowMs))) {
      return null;
    }
    const result = await tx.secrets.applyPush({
      organizationId: organization.id,
      environmentId: environment.id,
      changes,
      force,
      now: ctx.at,
      event: (plan) =>
        force
          ? ctx.draft(
              'push_force_overwrite',
              {
                conflict_mode: mode,
                // The conflict records of source section 2.3, one per key written, with the version
                // the push wrote (decisions.md, Activity).
                keys: plan.overwritten.map((record, i) => ({
                  ...record,
                  new_version: plan.writes[i]!.version,
                  deleted: plan.writes[i]!.value === null,
                })),
              },
              { device_id: device.id },
            )
          : ctx.draft(
              'push_applied',
              {
                conflict_mode: mode,
                versions: plan.writes.map((w) => ({
                  key: w.key,
                  version: w.version,
                  deleted: w.value === null,
                })),
              },
              { device_id: device.id },
            ),
    });
    if (!result.ok) {
      await tx.activity.append(
        organization.id,
        ctx.draft(
          'push_conflict',
          { conflict_mode: mode, conflicts: result.conflicts },
          { device_id: device.id },
        ),
      );
    }
    return result;
  });
  if (outcome === null) {
    throw new LatchkeyError(
      'push_replayed',
      'This nonce was already used; sign the push again with a new nonce.',
    );
  }
  const result = outcome;
  if (!result.ok) {
    throw recorded(
      new LatchkeyError(
        'version_conflict',
        `${result.conflicts.length} key(s) changed since your if_version; pull, merge and push again.`,
        { extra: { conflicts: result.conflicts } },
      ),
    );
  }
  return { status: 200, body: { versions: result.versions, event_id: result.event.id } };
}
