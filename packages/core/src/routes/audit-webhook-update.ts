/**
 * `PATCH …/audit-webhooks/{auditWebhook}`: change a webhook's name, URL (vetted against SSRF as at
 * create) or event-type filter, recorded as `audit_webhook_updated` with what changed (the URL by
 * its host only). A new filter applies to the events recorded after the change.
 */
import { normalizeFilter } from '../delivery/event-filter.js';
import type { AuditWebhook } from '../model.js';
import { AuditWebhookResponse, UpdateAuditWebhookBody } from '../schemas/audit-webhooks.js';
import { changeWebhook, vettedUrl, webhookData, webhookRoute } from './audit-webhooks.js';
import { answers } from './docs.js';
import { WEBHOOK } from './paths.js';
import { toAuditWebhookView } from './views.js';

type Changes = Partial<Pick<AuditWebhook, 'name' | 'url' | 'event_types'>>;

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
      'Change the name, URL (checked against SSRF as at create) or event_types filter of an audit webhook. A new filter applies to events recorded after the change; recover replays by the filter as it then is.',
    body: UpdateAuditWebhookBody,
    responses: answers(200, 'Updated', AuditWebhookResponse),
    async handler(ctx) {
      const changes: Changes = {};
      if (ctx.body.name !== undefined) changes.name = ctx.body.name;
      if (ctx.body.url !== undefined) changes.url = await vettedUrl(ctx, ctx.body.url);
      if (ctx.body.event_types !== undefined) changes.event_types = normalizeFilter(ctx.body.event_types);
      const updated = await changeWebhook(
        ctx,
        (tx, id) => tx.auditWebhooks.update(ctx.organization.id, id, changes),
        (after, before) => {
          const changed = changedFields(before, after);
          return ctx.event('audit_webhook_updated', {
            ...webhookData(after),
            event_types: after.event_types,
            changed,
            from: previous(before, changed),
          });
        },
      );
      return { status: 200, body: toAuditWebhookView(updated) };
    },
  }),
];
