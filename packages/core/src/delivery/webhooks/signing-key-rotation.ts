/**
 * Rotating the organization's webhook signing keys (`standard-webhooks-ed25519`): a new current key
 * signs at once beside the old one, which retires after the grace period, recorded as
 * `audit_webhook_signing_key_rotated`. Rotations are rate-limited per organization.
 */

import { recordChange } from '../../activity/record-change.js';
import { rotateSigningKey } from '../signing-keys.js';
import { type WebhookCaller, webhookEvent } from './caller.js';
import type { WebhookDeps } from './deps.js';
import { requireKeyring } from './webhook-lookup.js';
import { signingKeysNow } from './webhook-reads.js';

/** Makes the caller's organization a new signing key; the keys that sign once it is made. */
export async function rotateOrganizationSigningKey(
  deps: Pick<WebhookDeps, 'store' | 'now' | 'ids' | 'keyring'>,
  caller: WebhookCaller,
) {
  const keyring = requireKeyring(deps.keyring);
  const organizationId = caller.organization.id;
  await recordChange(
    deps.store,
    organizationId,
    (tx) => rotateSigningKey(tx, keyring, deps.ids, organizationId, caller.at),
    ({ current, retired }) =>
      webhookEvent(deps.ids, caller, 'audit_webhook_signing_key_rotated', {
        key_id: current.id,
        public_key: current.public_key,
        retired_key_id: retired?.id ?? null,
        retires_at: retired?.retires_at ?? null,
      }),
  );
  return signingKeysNow(deps, organizationId);
}
