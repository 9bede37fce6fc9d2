/**
 * Rotating a webhook's signing secret. `latchkey`: the old one stops signing at once;
 * `standard-webhooks`: it keeps signing beside the new one for the grace period (two v1
 * signatures). A `standard-webhooks-ed25519` webhook has no secret of its own to rotate.
 */

import { recordChange } from '../../activity/record-change.js';
import { LatchkeyError } from '../../errors/latchkey-error.js';
import { secretContext } from '../../keyring/contexts.js';
import { seal } from '../../keyring/keyring.js';
import type { AuditWebhook } from '../../model/model.js';
import { ROTATION_GRACE_MS } from '../signing-keys.js';
import { type WebhookCaller, webhookEvent } from './caller.js';
import type { WebhookDeps } from './deps.js';
import { newSecretFor, schemeOf } from './signature-scheme.js';
import { webhookData } from './webhook-data.js';
import { findWebhook, found, requireKeyring } from './webhook-lookup.js';

/** Issues webhook `webhookId` a new signing secret, recorded as `audit_webhook_secret_rotated`. */
export async function rotateWebhookSecret(
  deps: Pick<WebhookDeps, 'store' | 'ids' | 'keyring'>,
  caller: WebhookCaller,
  webhookId: string,
): Promise<{ webhook: AuditWebhook; signingSecret: string }> {
  const keyring = requireKeyring(deps.keyring);
  const organizationId = caller.organization.id;
  const current = await findWebhook(deps.store, organizationId, webhookId);
  const scheme = schemeOf(current);
  if (scheme === 'standard-webhooks-ed25519') {
    throw new LatchkeyError(
      'invalid_request',
      'This webhook signs with the organization signing keys: rotate them with POST …/audit-webhooks/signing-keys/rotate.',
    );
  }
  const secret = newSecretFor(scheme);
  const until = new Date(Date.parse(caller.at) + ROTATION_GRACE_MS).toISOString();
  const webhook = await recordChange(
    deps.store,
    organizationId,
    async (tx) =>
      found(
        await tx.auditWebhooks.setSecret(
          organizationId,
          current.id,
          seal(keyring, secret, secretContext(current.id)),
          scheme === 'standard-webhooks' ? { sealed: current.secret_sealed, until } : null,
        ),
      ),
    (rotated) => webhookEvent(deps.ids, caller, 'audit_webhook_secret_rotated', webhookData(rotated)),
  );
  return { webhook, signingSecret: secret };
}
