/**
 * The fields a PATCH of an audit webhook asks to change, made ready to store: the URL vetted
 * against SSRF as at create, the filter normalised, the custom headers merged into the webhook's
 * current ones and sealed, the client certificate checked and its key sealed.
 */
import type { AuditWebhook, SignatureScheme } from '../../model/model.js';
import { normalizeFilter } from '../event-filter.js';
import type { WebhookCaller } from './caller.js';
import { type ClientCertificateInput, patchedHeaders, sealedClientCertificate } from './credentials.js';
import type { WebhookDeps } from './deps.js';
import { vettedUrl } from './vetted-url.js';
import { findWebhook, requireKeyring } from './webhook-lookup.js';

/** A PATCH request, as the API validated it (`UpdateAuditWebhookBody`): only the fields to change. */
export interface UpdateWebhookInput {
  name?: string | undefined;
  url?: string | undefined;
  event_types?: readonly string[] | undefined;
  /** A merge patch of the custom headers (null removes one); null as a whole removes them all. */
  headers?: Readonly<Record<string, string | null>> | null | undefined;
  /** Null removes the certificate. */
  client_certificate?: ClientCertificateInput | null | undefined;
  signature_scheme?: SignatureScheme | undefined;
}

/** The fields of a webhook a PATCH may change, as stored. */
export type WebhookChanges = Partial<
  Pick<AuditWebhook, 'name' | 'url' | 'event_types' | 'headers' | 'client_certificate' | 'signature_scheme'>
>;

/**
 * Adds the credentials of the request to `changes`, sealed (headers merged into the webhook's
 * current ones, read before the change's unit of work: a concurrent PATCH of headers is
 * last-writer-wins).
 */
async function credentialChanges(
  deps: Pick<WebhookDeps, 'store' | 'keyring'>,
  caller: WebhookCaller,
  webhookId: string,
  input: UpdateWebhookInput,
  changes: WebhookChanges,
): Promise<void> {
  const { headers, client_certificate: certificate } = input;
  if (headers === undefined && certificate === undefined) return;
  const keyring = requireKeyring(deps.keyring);
  const webhook = await findWebhook(deps.store, caller.organization.id, webhookId);
  if (headers !== undefined) changes.headers = patchedHeaders(keyring, webhook, headers);
  if (certificate !== undefined) {
    changes.client_certificate =
      certificate === null
        ? null
        : sealedClientCertificate(keyring, webhook.id, certificate, Date.parse(caller.at));
  }
}

/**
 * The changes the request asks for, ready to store; a 400 for a URL, headers or certificate
 * refused, a 503 for credentials without a keyring, a 404 for credentials of a webhook not found.
 */
export async function requestedChanges(
  deps: Pick<WebhookDeps, 'store' | 'keyring' | 'webhooks'>,
  caller: WebhookCaller,
  webhookId: string,
  input: UpdateWebhookInput,
): Promise<WebhookChanges> {
  const changes: WebhookChanges = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.url !== undefined) changes.url = await vettedUrl(deps.webhooks, input.url);
  if (input.event_types !== undefined) changes.event_types = normalizeFilter(input.event_types);
  await credentialChanges(deps, caller, webhookId, input, changes);
  if (input.signature_scheme !== undefined) changes.signature_scheme = input.signature_scheme;
  return changes;
}
