/**
 * `PATCH …/audit-webhooks/{auditWebhook}`: change a webhook's name, URL (vetted against SSRF as at
 * create) or event-type filter, recorded as `audit_webhook_updated` with what changed (the URL by
 * its host only). A new filter applies to the events recorded after the change.
 */
import type { z } from 'zod';
import { normalizeFilter } from '../delivery/event-filter.js';
import type { RouteContext } from '../http/router.js';
import type { AuditWebhook } from '../model.js';
import { AuditWebhookResponse, UpdateAuditWebhookBody } from '../schemas/audit-webhooks.js';
import {
  changeWebhook,
  keyringOf,
  vettedUrl,
  webhookData,
  webhookOf,
  webhookRoute,
} from './audit-webhooks.js';
import { answers } from './docs.js';
import { WEBHOOK } from './paths.js';
import { toAuditWebhookView } from './views.js';
import {
  changedCredentials,
  credentialsData,
  patchedHeaders,
  sealedClientCertificate,
} from './webhook-credentials.js';

/**
 * Adds the credentials of the body to `changes`, sealed (headers merged into the webhook's current
 * ones, read before the change's unit of work: a concurrent PATCH of headers is last-writer-wins).
 */
async function credentialChanges(
  ctx: RouteContext<z.infer<typeof UpdateAuditWebhookBody>>,
  changes: Changes,
) {
  const { headers, client_certificate: certificate } = ctx.body;
  if (headers === undefined && certificate === undefined) return;
  const keyring = keyringOf(ctx);
  const webhook = await webhookOf(ctx);
  if (headers !== undefined) changes.headers = patchedHeaders(keyring, webhook, headers);
  if (certificate !== undefined) {
    changes.client_certificate =
      certificate === null
        ? null
        : sealedClientCertificate(keyring, webhook.id, certificate, Date.parse(ctx.at));
  }
}

type Changes = Partial<Pick<AuditWebhook, 'name' | 'url' | 'event_types' | 'headers' | 'client_certificate'>>;

/** The fields of `changes` that differ from `before`, in a fixed order. */
function changedFields(before: AuditWebhook, after: AuditWebhook): ('name' | 'url' | 'event_types')[] {
  const fields = [] as ('name' | 'url' | 'event_types')[];
  if (before.name !== after.name) fields.push('name');
  if (before.url !== after.url) fields.push('url');
  if (before.event_types.join('\n') !== after.event_types.join('\n')) fields.push('event_types');
  return fields;
}

/** The changed fields as they were: the URL by its host only, since a URL may carry a token. */
function previous(before: AuditWebhook, fields: readonly string[]) {
  return {
    ...(fields.includes('name') ? { name: before.name } : {}),
    ...(fields.includes('url') ? { host: new URL(before.url).host } : {}),
    ...(fields.includes('event_types') ? { event_types: before.event_types } : {}),
  };
}

export const auditWebhookUpdateRoutes = [
  webhookRoute({
    method: 'PATCH',
    path: WEBHOOK,
    operationId: 'updateAuditWebhook',
    summary:
      'Change the name, URL (checked against SSRF as at create), event_types filter, custom headers (a merge patch) or client certificate (null removes it) of an audit webhook. A new filter applies to events recorded after the change; recover replays by the filter as it then is.',
    body: UpdateAuditWebhookBody,
    responses: answers(200, 'Updated', AuditWebhookResponse),
    async handler(ctx) {
      const changes: Changes = {};
      if (ctx.body.name !== undefined) changes.name = ctx.body.name;
      if (ctx.body.url !== undefined) changes.url = await vettedUrl(ctx, ctx.body.url);
      if (ctx.body.event_types !== undefined) changes.event_types = normalizeFilter(ctx.body.event_types);
      await credentialChanges(ctx, changes);
      const updated = await changeWebhook(
        ctx,
        (tx, id) => tx.auditWebhooks.update(ctx.organization.id, id, changes),
        (after, before) => {
          const credentials = changedCredentials(before, after);
          const changed = [...changedFields(before, after), ...credentials];
          return ctx.event('audit_webhook_updated', {
            ...webhookData(after),
            event_types: after.event_types,
            ...credentialsData(after, credentials),
            changed,
            from: { ...previous(before, changed), ...credentialsData(before, credentials) },
          });
        },
      );
      return { status: 200, body: toAuditWebhookView(updated) };
    },
  }),
];
