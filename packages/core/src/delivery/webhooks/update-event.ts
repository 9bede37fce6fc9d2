/**
 * What `audit_webhook_updated` says of a change: the fields that differ and what they were, the
 * URL by its host only (a URL may carry a token), headers by name, the certificate by fingerprint.
 */
import type { EventData } from '../../activity/event-types/index.js';
import type { AuditWebhook } from '../../model/model.js';
import { changedCredentials, credentialsData } from './credentials.js';
import { schemeOf } from './signature-scheme.js';
import { webhookData } from './webhook-data.js';

type Field = 'name' | 'url' | 'event_types' | 'signature_scheme';

/** The fields that differ between `before` and `after`, in a fixed order. */
function changedFields(before: AuditWebhook, after: AuditWebhook): Field[] {
  const fields = [] as Field[];
  if (before.name !== after.name) fields.push('name');
  if (before.url !== after.url) fields.push('url');
  if (before.event_types.join('\n') !== after.event_types.join('\n')) fields.push('event_types');
  if (schemeOf(before) !== schemeOf(after)) fields.push('signature_scheme');
  return fields;
}

/** The changed fields as they were: the URL by its host only, since a URL may carry a token. */
function previous(before: AuditWebhook, fields: readonly string[]) {
  return {
    ...(fields.includes('name') ? { name: before.name } : {}),
    ...(fields.includes('url') ? { host: new URL(before.url).host } : {}),
    ...(fields.includes('event_types') ? { event_types: before.event_types } : {}),
    ...(fields.includes('signature_scheme') ? { signature_scheme: schemeOf(before) } : {}),
  };
}

/** The data of the `audit_webhook_updated` event of a change from `before` to `after`. */
export function updatedEventData(
  before: AuditWebhook,
  after: AuditWebhook,
): EventData<'audit_webhook_updated'> {
  const credentials = changedCredentials(before, after);
  const changed = [...changedFields(before, after), ...credentials];
  return {
    ...webhookData(after),
    event_types: after.event_types,
    ...credentialsData(after, credentials),
    changed,
    from: { ...previous(before, changed), ...credentialsData(before, credentials) },
  };
}
