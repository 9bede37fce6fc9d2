/**
 * Changing an audit webhook (`PATCH`): its name, URL, filter, custom headers, client certificate or
 * signature scheme, recorded as `audit_webhook_updated` with what changed. A new filter applies to
 * the events recorded after the change. Moving into an HMAC scheme issues a new signing secret.
 */
import { secretContext } from '../../keyring/contexts.js';
import { seal } from '../../keyring/keyring.js';
import type { AuditWebhook } from '../../model/model.js';
import { type WebhookCaller, webhookEvent } from './caller.js';
import type { WebhookDeps } from './deps.js';
import { changeWebhook } from './record-change.js';
import { newSecretFor, prepareScheme, schemeOf } from './signature-scheme.js';
import { requestedChanges, type UpdateWebhookInput } from './update-changes.js';
import { updatedEventData } from './update-event.js';
import { requireKeyring } from './webhook-lookup.js';

/** A changed webhook, and the signing secret the change issued (shown this once), if it did. */
export interface WebhookUpdated {
  webhook: AuditWebhook;
  signingSecret?: string;
}

/** Changes webhook `webhookId` of the caller's organization as `input` asks (a 404 if it is not found). */
export async function updateWebhook(
  deps: Pick<WebhookDeps, 'store' | 'ids' | 'keyring' | 'webhooks'>,
  caller: WebhookCaller,
  webhookId: string,
  input: UpdateWebhookInput,
): Promise<WebhookUpdated> {
  const changes = await requestedChanges(deps, caller, webhookId, input);
  const scheme = input.signature_scheme;
  const keyring = scheme === undefined ? undefined : requireKeyring(deps.keyring);
  // A receiver cannot hold a secret for a scheme it never had: moving into an HMAC scheme issues one.
  const secret =
    scheme === undefined || scheme === 'standard-webhooks-ed25519' ? undefined : newSecretFor(scheme);
  const organizationId = caller.organization.id;
  let issued: string | undefined;
  const updated = await changeWebhook(
    deps.store,
    { organizationId, webhookId },
    async (tx, { id }) => {
      // The scheme is compared with the webhook as the transaction sees it, not as read before.
      const before = await tx.auditWebhooks.get(organizationId, id);
      if (!before || !keyring || scheme === undefined || schemeOf(before) === scheme) {
        return tx.auditWebhooks.update(organizationId, id, changes);
      }
      await prepareScheme(tx, { keyring, ids: deps.ids }, caller, scheme);
      if (secret !== undefined) {
        await tx.auditWebhooks.setSecret(organizationId, id, seal(keyring, secret, secretContext(id)), null);
        issued = secret;
      }
      return tx.auditWebhooks.update(organizationId, id, changes);
    },
    (after, before) =>
      webhookEvent(deps.ids, caller, 'audit_webhook_updated', updatedEventData(before, after)),
  );
  return issued === undefined ? { webhook: updated } : { webhook: updated, signingSecret: issued };
}
