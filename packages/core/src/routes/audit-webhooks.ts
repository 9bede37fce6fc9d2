/**
 * Audit webhook management (owner/admin): list, create, get, rotate-secret, disable and enable,
 * each a call into the webhook service (`delivery/webhooks/`) whose answer is mapped to its view.
 * Signing secrets are shown only in the create and rotate answers.
 */

import { createWebhook, type WebhookCreated } from '../delivery/webhooks/create-webhook.js';
import { disableWebhook } from '../delivery/webhooks/disable-webhook.js';
import { enableWebhook } from '../delivery/webhooks/enable-webhook.js';
import { rotateWebhookSecret } from '../delivery/webhooks/rotate-secret.js';
import { findWebhook } from '../delivery/webhooks/webhook-lookup.js';
import { listWebhooks } from '../delivery/webhooks/webhook-reads.js';
import { toAuditWebhookView } from '../http/views.js';
import { LIMIT_DEFAULTS } from '../model/limits.js';
import {
  AuditWebhookResponse,
  AuditWebhookWithSecretResponse,
  CreateAuditWebhookBody,
} from '../schemas/audit-webhooks.js';
import { answers, error } from './docs.js';
import { listing } from './list-route.js';
import { WEBHOOK, WEBHOOKS } from './paths.js';
import { webhookAction, webhookCaller, webhookParam, webhookRoute } from './webhook-route.js';

/** The answer of a create: the webhook, and its secret (shown once) or the public keys that sign for it. */
function createdView(created: WebhookCreated) {
  const view = toAuditWebhookView(created.webhook);
  return 'publicKeys' in created
    ? { ...view, public_keys: created.publicKeys }
    : { ...view, signing_secret: created.signingSecret };
}

export const auditWebhookRoutes = [
  webhookRoute('GET', WEBHOOKS, {
    operationId: 'listAuditWebhooks',
    summary: 'List the audit webhooks of the organization (never their secrets).',
    ...listing('audit_webhooks', AuditWebhookResponse, toAuditWebhookView, (ctx) =>
      listWebhooks(ctx.deps.store, ctx.organization.id),
    ),
  }),

  webhookRoute('POST', WEBHOOKS, {
    operationId: 'createAuditWebhook',
    summary: `Create an audit webhook: the activity events of the organization its event_types filter selects (every event without one) are delivered to its https URL, signed; replay_since back-fills it from the log, a batch at a time (webhooks.replay; live events go first; replayed counts the events it covers, at most webhooks.replay.maxEvents); headers and client_certificate are sent with every attempt for receivers that demand them (header values and the key are sealed, never shown again). The signing secret is in this answer only. An organization has at most limits.auditWebhooksPerOrganization webhooks (default ${LIMIT_DEFAULTS.auditWebhooksPerOrganization}, disabled ones included).`,
    body: CreateAuditWebhookBody,
    responses: answers(201, 'Created', AuditWebhookWithSecretResponse, {
      409: error(
        'limit_exceeded: the organization has as many audit webhooks as the server allows (limits.auditWebhooksPerOrganization), change and enable a disabled one instead; or replay_since covers more events than webhooks.replay.maxEvents',
      ),
    }),
    async handler(ctx) {
      const created = await createWebhook(ctx.deps, webhookCaller(ctx), ctx.body);
      return { status: 201, body: createdView(created) };
    },
  }),

  webhookRoute('GET', WEBHOOK, {
    operationId: 'getAuditWebhook',
    summary: 'One audit webhook, with its delivery health (never its secret).',
    responses: answers(200, 'The audit webhook', AuditWebhookResponse),
    async handler(ctx) {
      const webhook = await findWebhook(ctx.deps.store, ctx.organization.id, webhookParam(ctx));
      return { status: 200, body: toAuditWebhookView(webhook) };
    },
  }),

  webhookRoute('POST', `${WEBHOOK}/rotate-secret`, {
    operationId: 'rotateAuditWebhookSecret',
    summary:
      'Issue a new signing secret, in this answer only. latchkey: the old one stops signing at once (receivers may accept both while they switch); standard-webhooks: the old one keeps signing beside the new one for 24 h (two v1 signatures). Not for standard-webhooks-ed25519 (rotate the organization signing keys).',
    responses: answers(200, 'Rotated', AuditWebhookWithSecretResponse),
    handler: webhookAction(rotateWebhookSecret, (rotated) => ({
      ...toAuditWebhookView(rotated.webhook),
      signing_secret: rotated.signingSecret,
    })),
  }),

  webhookRoute('POST', `${WEBHOOK}/disable`, {
    operationId: 'disableAuditWebhook',
    summary:
      'Disable the webhook: nothing more is queued for it, and what was owed is dropped (recover replays from the log).',
    responses: answers(200, 'Disabled', AuditWebhookResponse),
    handler: webhookAction(disableWebhook, toAuditWebhookView),
  }),

  webhookRoute('POST', `${WEBHOOK}/enable`, {
    operationId: 'enableAuditWebhook',
    summary:
      'Enable a disabled or dead-lettered webhook: it is active again, and the events held while it was dead-lettered are delivered.',
    responses: answers(200, 'Enabled', AuditWebhookResponse),
    handler: webhookAction(enableWebhook, toAuditWebhookView),
  }),
];
