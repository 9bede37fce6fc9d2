/**
 * Audit webhook management (owner/admin): list, create, get, rotate-secret, disable and enable.
 * Signing secrets are stored sealed with the host's keyring and shown only in the create and
 * rotate answers. The URL is checked against SSRF here and again at every attempt.
 */
import { LatchkeyError, serviceUnavailable } from '../errors.js';
import { seal } from '../keyring.js';
import type { AuditWebhook } from '../model.js';
import { defineRoute, type RouteContext } from '../router.js';
import {
  AuditWebhookListResponse,
  AuditWebhookResponse,
  AuditWebhookWithSecretResponse,
  CreateAuditWebhookBody,
} from '../webhook-schemas.js';
import { secretContext } from '../webhooks/attempt.js';
import { newSigningSecret } from '../webhooks/signing.js';
import { vetTarget } from '../webhooks/ssrf.js';
import { commonErrors } from './docs.js';
import { toAuditWebhookView } from './views.js';

export const WEBHOOKS = '/organizations/{organization}/audit-webhooks';
const WEBHOOK = `${WEBHOOKS}/{auditWebhook}`;

/** The keyring, or a 503 saying the host has not configured one. */
function keyringOf(ctx: RouteContext) {
  const { keyring } = ctx.services;
  if (!keyring) {
    throw new LatchkeyError(
      'service_unavailable',
      'Audit webhooks need encryption at rest, and this server has no keyring configured (core option keyring).',
    );
  }
  return keyring;
}

/** The webhook named in the path, in the caller's organization, or a 404. */
export async function webhookOf(ctx: RouteContext): Promise<AuditWebhook> {
  const webhook = await ctx.services.store.auditWebhooks.get(
    ctx.organization.id,
    ctx.params['auditWebhook']!,
  );
  if (!webhook) throw new LatchkeyError('not_found', 'The audit webhook was not found.');
  return webhook;
}

/** The event data naming a webhook: its id, name and host (never the full URL, which may carry a token). */
export const webhookData = (webhook: AuditWebhook) => ({
  webhook_id: webhook.id,
  name: webhook.name,
  host: new URL(webhook.url).host,
});

const REFUSALS = {
  invalid_url: 'url must be an absolute https:// URL.',
  not_https: 'url must use https.',
  credentials: 'url must not carry a user name or password.',
  blocked_address:
    'url must reach a public address: loopback, private, link-local and other internal addresses are refused.',
  unresolvable: 'url host does not resolve.',
} as const;

export const auditWebhookRoutes = [
  defineRoute({
    method: 'GET',
    path: WEBHOOKS,
    operationId: 'listAuditWebhooks',
    summary: 'List the audit webhooks of the organization (never their secrets).',
    tag: 'Audit webhooks',
    permission: 'audit_webhooks:manage',
    responses: { 200: { description: 'Audit webhooks', schema: AuditWebhookListResponse }, ...commonErrors },
    async handler(ctx) {
      const webhooks = await ctx.services.store.auditWebhooks.list(ctx.organization.id);
      return { status: 200, body: { audit_webhooks: webhooks.map(toAuditWebhookView) } };
    },
  }),

  defineRoute({
    method: 'POST',
    path: WEBHOOKS,
    operationId: 'createAuditWebhook',
    summary:
      'Create an audit webhook: every activity event of the organization is delivered to its https URL, signed. The signing secret is in this answer only.',
    tag: 'Audit webhooks',
    permission: 'audit_webhooks:manage',
    body: CreateAuditWebhookBody,
    responses: { 201: { description: 'Created', schema: AuditWebhookWithSecretResponse }, ...commonErrors },
    async handler(ctx) {
      const keyring = keyringOf(ctx);
      const { resolve, allowHosts } = ctx.services.webhooks;
      let verdict: Awaited<ReturnType<typeof vetTarget>>;
      try {
        verdict = await vetTarget(ctx.body.url, resolve, allowHosts);
      } catch (error) {
        throw serviceUnavailable(error, 5);
      }
      if (!verdict.ok) {
        throw new LatchkeyError('invalid_request', REFUSALS[verdict.reason], {
          details: [{ path: 'body.url', message: verdict.message }],
        });
      }
      const id = ctx.services.ids('awh');
      const secret = newSigningSecret();
      const webhook: AuditWebhook = {
        id,
        organization_id: ctx.organization.id,
        name: ctx.body.name,
        url: verdict.url.href,
        status: 'active',
        secret_sealed: seal(keyring, secret, secretContext(id)),
        consecutive_failures: 0,
        last_delivery: null,
        last_error: null,
        created_at: ctx.at,
        created_by: ctx.principal.user,
      };
      await ctx.services.store.transaction(async (tx) => {
        await tx.auditWebhooks.create(webhook);
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('audit_webhook_created', webhookData(webhook)),
        );
      });
      return { status: 201, body: { ...toAuditWebhookView(webhook), signing_secret: secret } };
    },
  }),

  defineRoute({
    method: 'GET',
    path: WEBHOOK,
    operationId: 'getAuditWebhook',
    summary: 'One audit webhook, with its delivery health (never its secret).',
    tag: 'Audit webhooks',
    permission: 'audit_webhooks:manage',
    responses: { 200: { description: 'The audit webhook', schema: AuditWebhookResponse }, ...commonErrors },
    async handler(ctx) {
      return { status: 200, body: toAuditWebhookView(await webhookOf(ctx)) };
    },
  }),

  defineRoute({
    method: 'POST',
    path: `${WEBHOOK}/rotate-secret`,
    operationId: 'rotateAuditWebhookSecret',
    summary:
      'Issue a new signing secret, in this answer only; the old one stops signing at once (receivers may accept both while they switch).',
    tag: 'Audit webhooks',
    permission: 'audit_webhooks:manage',
    responses: { 200: { description: 'Rotated', schema: AuditWebhookWithSecretResponse }, ...commonErrors },
    async handler(ctx) {
      const keyring = keyringOf(ctx);
      const existing = await webhookOf(ctx);
      const secret = newSigningSecret();
      const webhook = await ctx.services.store.transaction(async (tx) => {
        const rotated = await tx.auditWebhooks.setSecret(
          ctx.organization.id,
          existing.id,
          seal(keyring, secret, secretContext(existing.id)),
        );
        if (!rotated) throw new LatchkeyError('not_found', 'The audit webhook was not found.');
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('audit_webhook_secret_rotated', webhookData(rotated)),
        );
        return rotated;
      });
      return { status: 200, body: { ...toAuditWebhookView(webhook), signing_secret: secret } };
    },
  }),

  defineRoute({
    method: 'POST',
    path: `${WEBHOOK}/disable`,
    operationId: 'disableAuditWebhook',
    summary:
      'Disable the webhook: nothing more is queued for it, and what was owed is dropped (recover replays from the log).',
    tag: 'Audit webhooks',
    permission: 'audit_webhooks:manage',
    responses: { 200: { description: 'Disabled', schema: AuditWebhookResponse }, ...commonErrors },
    async handler(ctx) {
      const existing = await webhookOf(ctx);
      const webhook = await ctx.services.store.transaction(async (tx) => {
        const disabled = await tx.auditWebhooks.disable(ctx.organization.id, existing.id);
        if (!disabled) throw new LatchkeyError('not_found', 'The audit webhook was not found.');
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('audit_webhook_disabled', webhookData(disabled)),
        );
        return disabled;
      });
      return { status: 200, body: toAuditWebhookView(webhook) };
    },
  }),

  defineRoute({
    method: 'POST',
    path: `${WEBHOOK}/enable`,
    operationId: 'enableAuditWebhook',
    summary:
      'Enable a disabled or dead-lettered webhook: it is active again, and the events held while it was dead-lettered are delivered.',
    tag: 'Audit webhooks',
    permission: 'audit_webhooks:manage',
    responses: { 200: { description: 'Enabled', schema: AuditWebhookResponse }, ...commonErrors },
    async handler(ctx) {
      const existing = await webhookOf(ctx);
      const webhook = await ctx.services.store.transaction(async (tx) => {
        const enabled = await tx.auditWebhooks.enable(ctx.organization.id, existing.id, ctx.at);
        if (!enabled) throw new LatchkeyError('not_found', 'The audit webhook was not found.');
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('audit_webhook_enabled', {
            ...webhookData(enabled.webhook),
            from: existing.status,
            released: enabled.released,
          }),
        );
        return enabled.webhook;
      });
      return { status: 200, body: toAuditWebhookView(webhook) };
    },
  }),
];
