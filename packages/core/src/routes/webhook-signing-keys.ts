/**
 * The organization's webhook signing keys (`standard-webhooks-ed25519`): `GET` publishes the public
 * keys that sign now to any member (receivers verify with them, they are not secret); `rotate`
 * (owner/admin) makes a new current key, which signs at once beside the old one; the old one keeps
 * signing for 24 h, then retires (a key still retiring from an earlier rotation retires at once).
 * Recorded as `audit_webhook_signing_key_rotated`. Rotations are rate-limited per organization.
 */
import { MAX_SIGNING_KEYS_PER_DAY, MAX_STORED_SIGNING_KEYS } from '../delivery/signing-keys.js';
import { rotateOrganizationSigningKey } from '../delivery/webhooks/signing-key-rotation.js';
import { signingKeysNow } from '../delivery/webhooks/webhook-reads.js';
import { SigningKeysResponse } from '../schemas/signature-schemes.js';
import { answers, error } from './docs.js';
import { WEBHOOKS } from './paths.js';
import { routeGroup } from './route-group.js';
import { webhookCaller } from './webhook-route.js';

const keyRoute = routeGroup({ tag: 'Audit webhooks' });
const SIGNING_KEYS = `${WEBHOOKS}/signing-keys`;

export const webhookSigningKeyRoutes = [
  keyRoute('GET', SIGNING_KEYS, {
    permission: 'organization:read',
    operationId: 'listWebhookSigningKeys',
    summary:
      'The public keys (whpk_…) that sign standard-webhooks-ed25519 deliveries now: one, or two during a rotation. Any member may read them.',
    responses: answers(200, 'Signing keys', SigningKeysResponse),
    async handler(ctx) {
      const keys = await signingKeysNow(ctx.deps, ctx.organization.id);
      return { status: 200, body: { signing_keys: keys } };
    },
  }),

  keyRoute('POST', `${SIGNING_KEYS}/rotate`, {
    permission: 'audit_webhooks:manage',
    operationId: 'rotateWebhookSigningKey',
    summary: `Make a new signing key: published and signing at once beside the current one, which keeps signing for 24 h and then retires; a key still retiring from an earlier rotation retires at once. At most ${MAX_SIGNING_KEYS_PER_DAY} keys are made per organization in any 24 h; the ${MAX_STORED_SIGNING_KEYS} newest are kept, older retired ones deleted.`,
    responses: answers(200, 'Rotated', SigningKeysResponse, {
      429: error(
        `rate_limited: the organization made ${MAX_SIGNING_KEYS_PER_DAY} signing keys in the last 24 h; Retry-After says when the next rotation is allowed`,
      ),
    }),
    async handler(ctx) {
      const keys = await rotateOrganizationSigningKey(ctx.deps, webhookCaller(ctx));
      return { status: 200, body: { signing_keys: keys } };
    },
  }),
];
