/**
 * `PATCH …/audit-webhooks/{auditWebhook}`: change a webhook's name, URL (vetted against SSRF as at
 * create), event-type filter, custom headers, client certificate or signature scheme, recorded as
 * `audit_webhook_updated` with what changed (the URL by its host only, headers by name, the
 * certificate by fingerprint). A new filter applies to the events recorded after the change.
 */
import type { z } from 'zod';
import { normalizeFilter } from '../delivery/event-filter.js';
import type { RouteContext } from '../http/router.js';
import { toAuditWebhookView } from '../http/views.js';
import { secretContext } from '../keyring/contexts.js';
import { seal } from '../keyring/keyring.js';
import type { AuditWebhook } from '../model/model.js';
import { AuditWebhookWithSecretResponse, UpdateAuditWebhookBody } from '../schemas/audit-webhooks.js';
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
import {
  changedCredentials,
  credentialsData,
  patchedHeaders,
  sealedClientCertificate,
} from './webhook-credentials.js';
import { newSecretFor, prepareScheme } from './webhook-schemes.js';

type Changes = Partial<
  Pick<AuditWebhook, 'name' | 'url' | 'event_types' | 'headers' | 'client_certificate' | 'signature_scheme'>
>;
type Field = 'name' | 'url' | 'event_types' | 'signature_scheme';

const schemeOf = (webhook: AuditWebhook) => webhook.signature_scheme ?? 'latchkey';

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

/** The fields of `changes` that differ from `before`, in a fixed order. */
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

export const auditWebhookUpdateRoutes = [
  webhookRoute({
    method: 'PATCH',
    path: WEBHOOK,
    operationId: 'updateAuditWebhook',
    summary:
      'Change the name, URL (checked against SSRF as at create), event_types filter, custom headers (a merge patch), client certificate (null removes it) or signature_scheme of an audit webhook. A new filter applies to events recorded after the change; recover replays by the filter as it then is. Moving into latchkey or standard-webhooks issues a new signing secret, in this answer only (signing_secret).',
    body: UpdateAuditWebhookBody,
    responses: answers(200, 'Updated', AuditWebhookWithSecretResponse),
    async handler(ctx) {
      const changes: Changes = {};
      if (ctx.body.name !== undefined) changes.name = ctx.body.name;
      if (ctx.body.url !== undefined) changes.url = await vettedUrl(ctx, ctx.body.url);
      if (ctx.body.event_types !== undefined) changes.event_types = normalizeFilter(ctx.body.event_types);
      await credentialChanges(ctx, changes);
      const scheme = ctx.body.signature_scheme;
      if (scheme !== undefined) changes.signature_scheme = scheme;
      const keyring = scheme === undefined ? undefined : keyringOf(ctx);
      // A receiver cannot hold a secret for a scheme it never had: moving into an HMAC scheme issues one.
      const secret =
        scheme === undefined || scheme === 'standard-webhooks-ed25519' ? undefined : newSecretFor(scheme);
      let issued: string | undefined;
      const updated = await changeWebhook(
        ctx,
        async (tx, id) => {
          const before = await tx.auditWebhooks.get(ctx.organization.id, id);
          if (!before || !keyring || scheme === undefined || schemeOf(before) === scheme) {
            return tx.auditWebhooks.update(ctx.organization.id, id, changes);
          }
          await prepareScheme(ctx, tx, keyring, scheme);
          if (secret !== undefined) {
            await tx.auditWebhooks.setSecret(
              ctx.organization.id,
              id,
              seal(keyring, secret, secretContext(id)),
              null,
            );
            issued = secret;
          }
          return tx.auditWebhooks.update(ctx.organization.id, id, changes);
        },
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
      const view = toAuditWebhookView(updated);
      return { status: 200, body: issued === undefined ? view : { ...view, signing_secret: issued } };
    },
  }),
];
