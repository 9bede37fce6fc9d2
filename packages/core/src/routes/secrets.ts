/**
 * Signed pushes with optimistic concurrency (decided by `secrets/push-service.ts`), and pulls (their
 * values opened by `secrets/pull-secrets.ts`).
 */

import {
  ErrorResponse,
  IfVersionRequiredResponse,
  PushBody,
  PushConflictResponse,
  PushResponse,
  SecretsResponse,
} from '../schemas/api.js';
import { pullSecrets } from '../secrets/pull-secrets.js';
import { pushDeviceId } from '../secrets/push-device-id.js';
import { applySignedPush } from '../secrets/push-service.js';
import { commonErrors } from './docs.js';
import { ENVIRONMENT } from './paths.js';
import { routeGroup } from './route-group.js';

/** The routes of secrets: tagged Secrets. */
const secretRoute = routeGroup({ tag: 'Secrets' });

/** The push and pull routes of an environment's secrets. */
export const secretRoutes = [
  secretRoute('POST', `${ENVIRONMENT}/push`, {
    operationId: 'push',
    summary: 'Push signed changes with optimistic concurrency. All changes apply, or none.',
    permission: 'secrets:push',
    body: PushBody,
    rejectedEvent: 'push_rejected',
    // The signing device is read with the token (one round trip less); checked by the push service.
    prefetch: (request) => ({ device: pushDeviceId(request.body) }),
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
          'approval_required (the environment has an approval policy: propose a change request, or ' +
          'give bypass_reason with a role in its bypass_roles), forbidden (also: a bypass_reason from a ' +
          'role not in bypass_roles), device_unknown, device_revoked, device_not_owned, or ' +
          'device_key_invalid (the stored device key is of small or mixed order or non-canonical: ' +
          'enroll a new key)',
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
      const applied = await applySignedPush(ctx.deps, {
        body: ctx.body,
        signed: ctx.json as Record<string, unknown>,
        principal: ctx.principal,
        organization: ctx.organization,
        project: ctx.project!,
        environment: ctx.environment!,
        at: ctx.at,
        device: ctx.records?.device,
      });
      return { status: 200, body: { versions: applied.versions, event_id: applied.eventId } };
    },
  }),

  secretRoute('GET', `${ENVIRONMENT}/secrets`, {
    operationId: 'pullSecrets',
    summary: 'Pull the live secrets of an environment with their versions.',
    permission: 'secrets:read',
    responses: { 200: { description: 'Secrets', schema: SecretsResponse }, ...commonErrors },
    async handler(ctx) {
      const secrets = await pullSecrets(ctx.deps, ctx.environment!);
      return { status: 200, body: { secrets } };
    },
  }),
];
