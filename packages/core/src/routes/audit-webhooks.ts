/**
 * Audit webhook management (owner/admin): list, create, get, rotate-secret, disable and enable.
 * Signing secrets are stored sealed with the host's keyring and shown only in the create and
 * rotate answers. The URL is checked against SSRF here and again at every attempt.
 */

import { normalizeFilter } from '../delivery/event-filter.js';
import { startReplay } from '../delivery/replay-start.js';
import { vetWebhookUrl } from '../delivery/sending/webhook-url.js';
import { ROTATION_GRACE_MS } from '../delivery/signing-keys.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { RouteContext } from '../http/router.js';
import { toAuditWebhookView } from '../http/views.js';
import { secretContext } from '../keyring/contexts.js';
import { seal } from '../keyring/keyring.js';
import { LIMIT_DEFAULTS, limitExceeded } from '../model/limits.js';
import type { ActivityDraft, AuditWebhook } from '../model/model.js';
import {
  AuditWebhookListResponse,
  AuditWebhookResponse,
  AuditWebhookWithSecretResponse,
  CreateAuditWebhookBody,
} from '../schemas/audit-webhooks.js';
import type { StoreTransaction } from '../store/types.js';
import { answers, error } from './docs.js';
import { WEBHOOK, WEBHOOKS } from './paths.js';
import { recordChange } from './record-change.js';
import { routeGroup } from './route-group.js';
import { credentialsData, sealedClientCertificate, sealHeaders } from './webhook-credentials.js';
import { createdAnswer, newSecretFor, prepareScheme } from './webhook-schemes.js';

/** The keyring, or a 503 saying the host has not configured one. */
export function keyringOf(ctx: RouteContext) {
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
  return found(webhook);
}

/** The webhook a store call answered, or a 404 when it was gone. */
function found<T>(webhook: T | null | undefined): T {
  if (!webhook) throw new LatchkeyError('not_found', 'The audit webhook was not found.');
  return webhook;
}

/**
 * Changes the webhook the path names and records the change, in one unit of work (see
 * {@link recordChange}): `change` gets its id, `record` what it answered and the webhook as it was
 * before. A webhook gone in between is a 404.
 */
export async function changeWebhook<T>(
  ctx: RouteContext,
  change: (tx: StoreTransaction, id: string) => Promise<T | null | undefined>,
  record: (changed: T, before: AuditWebhook) => ActivityDraft,
): Promise<T> {
  const before = await webhookOf(ctx);
  return recordChange(
    ctx,
    async (tx) => found(await change(tx, before.id)),
    (changed) => record(changed, before),
  );
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

/** The URL `url` as vetted against SSRF (as at create), or the 400 saying why it is refused. */
export async function vettedUrl(ctx: RouteContext, url: string): Promise<string> {
  const verdict = await vetWebhookUrl(url, ctx.services.webhooks);
  if (!verdict.ok) {
    throw new LatchkeyError('invalid_request', REFUSALS[verdict.reason], {
      details: [{ path: 'body.url', message: verdict.message }],
    });
  }
  return verdict.url.href;
}

/** The routes of audit webhooks: all tagged alike, all for holders of audit_webhooks:manage. */
export const webhookRoute = routeGroup({ tag: 'Audit webhooks', permission: 'audit_webhooks:manage' });

export const auditWebhookRoutes = [
  webhookRoute({
    method: 'GET',
    path: WEBHOOKS,
    operationId: 'listAuditWebhooks',
    summary: 'List the audit webhooks of the organization (never their secrets).',
    responses: answers(200, 'Audit webhooks', AuditWebhookListResponse),
    async handler(ctx) {
      const webhooks = await ctx.services.store.auditWebhooks.list(ctx.organization.id);
      return { status: 200, body: { audit_webhooks: webhooks.map(toAuditWebhookView) } };
    },
  }),

  webhookRoute({
    method: 'POST',
    path: WEBHOOKS,
    operationId: 'createAuditWebhook',
    summary: `Create an audit webhook: the activity events of the organization its event_types filter selects (every event without one) are delivered to its https URL, signed; replay_since back-fills it from the log, a batch at a time (webhooks.replay; live events go first; replayed counts the events it covers, at most webhooks.replay.maxEvents); headers and client_certificate are sent with every attempt for receivers that demand them (header values and the key are sealed, never shown again). The signing secret is in this answer only. An organization has at most limits.auditWebhooksPerOrganization webhooks (default ${LIMIT_DEFAULTS.auditWebhooksPerOrganization}, disabled ones included).`,
    body: CreateAuditWebhookBody,
    responses: answers(201, 'Created', AuditWebhookWithSecretResponse, {
      409: error(
        'limit_exceeded: the organization has as many audit webhooks as the server allows (limits.auditWebhooksPerOrganization), change and enable a disabled one instead; or replay_since covers more events than webhooks.replay.maxEvents',
      ),
    }),
    async handler(ctx) {
      const keyring = keyringOf(ctx);
      const url = await vettedUrl(ctx, ctx.body.url);
      const id = ctx.services.ids('awh');
      const scheme = ctx.body.signature_scheme ?? 'latchkey';
      // Every webhook holds a secret (never shown for the ed25519 scheme), so the column stays whole.
      const secret = newSecretFor(scheme);
      const webhook: AuditWebhook = {
        id,
        organization_id: ctx.organization.id,
        name: ctx.body.name,
        url,
        status: 'active',
        event_types: normalizeFilter(ctx.body.event_types),
        signature_scheme: scheme,
        previous_secret: null,
        secret_sealed: seal(keyring, secret, secretContext(id)),
        headers: sealHeaders(keyring, id, ctx.body.headers),
        client_certificate: ctx.body.client_certificate
          ? sealedClientCertificate(keyring, id, ctx.body.client_certificate, Date.parse(ctx.at))
          : null,
        consecutive_failures: 0,
        last_delivery: null,
        last_error: null,
        created_at: ctx.at,
        created_by: ctx.principal.user,
      };
      const since = ctx.body.replay_since && new Date(ctx.body.replay_since).toISOString();
      await recordChange(
        ctx,
        async (tx) => {
          const max = ctx.services.limits.auditWebhooksPerOrganization;
          if ((await tx.auditWebhooks.create(webhook, max)) === 'limit') {
            throw limitExceeded(
              `An organization may have at most ${max} audit webhooks, disabled ones included (limits.auditWebhooksPerOrganization): change and enable a disabled one instead.`,
            );
          }
          await prepareScheme(ctx, tx, keyring, scheme);
          // The back-fill starts with the webhook: its first batch is queued before any later event
          // (its own creation's included), and the engine queues the rest a batch at a time, each
          // once the webhook has nothing due, so live events are not held behind the whole history.
          const target = { organizationId: ctx.organization.id, webhookId: id, at: ctx.at };
          return since === undefined ? undefined : startReplay(tx, ctx.services.webhooks, target, since);
        },
        (replayed) =>
          ctx.event('audit_webhook_created', {
            ...webhookData(webhook),
            event_types: webhook.event_types,
            ...credentialsData(webhook),
            ...(scheme === 'latchkey' ? {} : { signature_scheme: scheme }),
            ...(since === undefined ? {} : { replay_since: since, replayed }),
          }),
      );
      return { status: 201, body: await createdAnswer(ctx, webhook, secret) };
    },
  }),

  webhookRoute({
    method: 'GET',
    path: WEBHOOK,
    operationId: 'getAuditWebhook',
    summary: 'One audit webhook, with its delivery health (never its secret).',
    responses: answers(200, 'The audit webhook', AuditWebhookResponse),
    async handler(ctx) {
      return { status: 200, body: toAuditWebhookView(await webhookOf(ctx)) };
    },
  }),

  webhookRoute({
    method: 'POST',
    path: `${WEBHOOK}/rotate-secret`,
    operationId: 'rotateAuditWebhookSecret',
    summary:
      'Issue a new signing secret, in this answer only. latchkey: the old one stops signing at once (receivers may accept both while they switch); standard-webhooks: the old one keeps signing beside the new one for 24 h (two v1 signatures). Not for standard-webhooks-ed25519 (rotate the organization signing keys).',
    responses: answers(200, 'Rotated', AuditWebhookWithSecretResponse),
    async handler(ctx) {
      const keyring = keyringOf(ctx);
      const current = await webhookOf(ctx);
      const scheme = current.signature_scheme ?? 'latchkey';
      if (scheme === 'standard-webhooks-ed25519') {
        throw new LatchkeyError(
          'invalid_request',
          'This webhook signs with the organization signing keys: rotate them with POST …/audit-webhooks/signing-keys/rotate.',
        );
      }
      const secret = newSecretFor(scheme);
      const until = new Date(Date.parse(ctx.at) + ROTATION_GRACE_MS).toISOString();
      const webhook = await changeWebhook(
        ctx,
        (tx, id) =>
          tx.auditWebhooks.setSecret(
            ctx.organization.id,
            id,
            seal(keyring, secret, secretContext(id)),
            scheme === 'standard-webhooks' ? { sealed: current.secret_sealed, until } : null,
          ),
        (rotated) => ctx.event('audit_webhook_secret_rotated', webhookData(rotated)),
      );
      return { status: 200, body: { ...toAuditWebhookView(webhook), signing_secret: secret } };
    },
  }),

  webhookRoute({
    method: 'POST',
    path: `${WEBHOOK}/disable`,
    operationId: 'disableAuditWebhook',
    summary:
      'Disable the webhook: nothing more is queued for it, and what was owed is dropped (recover replays from the log).',
    responses: answers(200, 'Disabled', AuditWebhookResponse),
    async handler(ctx) {
      const webhook = await changeWebhook(
        ctx,
        (tx, id) => tx.auditWebhooks.disable(ctx.organization.id, id),
        (disabled) => ctx.event('audit_webhook_disabled', webhookData(disabled)),
      );
      return { status: 200, body: toAuditWebhookView(webhook) };
    },
  }),

  webhookRoute({
    method: 'POST',
    path: `${WEBHOOK}/enable`,
    operationId: 'enableAuditWebhook',
    summary:
      'Enable a disabled or dead-lettered webhook: it is active again, and the events held while it was dead-lettered are delivered.',
    responses: answers(200, 'Enabled', AuditWebhookResponse),
    async handler(ctx) {
      const enabled = await changeWebhook(
        ctx,
        (tx, id) => tx.auditWebhooks.enable(ctx.organization.id, id, ctx.at),
        ({ webhook, released }, before) =>
          ctx.event('audit_webhook_enabled', { ...webhookData(webhook), from: before.status, released }),
      );
      return { status: 200, body: toAuditWebhookView(enabled.webhook) };
    },
  }),
];
