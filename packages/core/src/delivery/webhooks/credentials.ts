/**
 * What creating and changing an audit webhook does with the credentials a receiver demands:
 * custom header values and the client key are sealed with the keyring, each bound to its webhook
 * (and a header to its name), as signing secrets are; a certificate that cannot work is a 400 naming
 * the field. Events name what changed by header names and certificate fingerprint only.
 */

import { LatchkeyError } from '../../errors/latchkey-error.js';
import { clientKeyContext, headerValueContext } from '../../keyring/contexts.js';
import { type Keyring, seal } from '../../keyring/keyring.js';
import type { AuditWebhook, WebhookClientCertificate, WebhookHeader } from '../../model/model.js';
import { inspectClientCertificate } from '../sending/client-certificate.js';
import { MAX_CUSTOM_HEADERS, mergeHeaderNames } from '../sending/custom-headers.js';

/** `headers` as given at create, sealed for webhook `webhookId`. */
export function sealHeaders(
  keyring: Keyring,
  webhookId: string,
  headers: Readonly<Record<string, string>> | undefined,
): WebhookHeader[] {
  return Object.entries(headers ?? {}).map(([name, value]) => ({
    name,
    value_sealed: seal(keyring, value, headerValueContext(webhookId, name)),
  }));
}

/**
 * The headers after a PATCH's merge patch (null: none), or a 400 when there would be more than the
 * limit. Kept headers keep their sealed values; set ones are sealed afresh.
 */
export function patchedHeaders(
  keyring: Keyring,
  webhook: Pick<AuditWebhook, 'id' | 'headers'>,
  patch: Readonly<Record<string, string | null>> | null,
): WebhookHeader[] {
  if (patch === null) return [];
  const current = webhook.headers ?? [];
  const { kept, set } = mergeHeaderNames(
    current.map((h) => h.name),
    patch,
  );
  if (kept.length + set.length > MAX_CUSTOM_HEADERS) {
    throw new LatchkeyError(
      'invalid_request',
      `A webhook has at most ${MAX_CUSTOM_HEADERS} custom headers.`,
      {
        details: [
          {
            path: 'body.headers',
            message: `the patch would leave ${kept.length + set.length} custom headers (at most ${MAX_CUSTOM_HEADERS})`,
          },
        ],
      },
    );
  }
  const keptHeaders = current.filter((h) => kept.includes(h.name));
  const setHeaders = set.map((name) => ({
    name,
    value_sealed: seal(keyring, patch[name]!, headerValueContext(webhook.id, name)),
  }));
  return [...keptHeaders, ...setHeaders];
}

/** A client certificate as given at create or PATCH: PEM texts. */
export interface ClientCertificateInput {
  /** The certificate, optionally followed by its intermediates. */
  certificate: string;
  /** Its private key, unencrypted. */
  private_key: string;
}

/** The client certificate as stored, its key sealed for webhook `webhookId`, or a 400 naming the field. */
export function sealedClientCertificate(
  keyring: Keyring,
  webhookId: string,
  body: ClientCertificateInput,
  nowMs: number,
): WebhookClientCertificate {
  const inspected = inspectClientCertificate(body.certificate, body.private_key, nowMs);
  if (!inspected.ok) {
    throw new LatchkeyError('invalid_request', 'The client certificate is refused.', {
      details: [{ path: `body.client_certificate.${inspected.field}`, message: inspected.message }],
    });
  }
  const { privateKey, ...shown } = inspected.value;
  return { ...shown, private_key_sealed: seal(keyring, privateKey, clientKeyContext(webhookId)) };
}

/**
 * What an event says of a webhook's credentials: its header names and its certificate's fingerprint,
 * each only when it has them (or, with `fields`, those fields whatever they are).
 */
export function credentialsData(
  webhook: Pick<AuditWebhook, 'headers' | 'client_certificate'>,
  fields?: readonly ('headers' | 'client_certificate')[],
): { headers?: string[]; client_certificate?: { fingerprint_sha256: string } | null } {
  const names = (webhook.headers ?? []).map((h) => h.name);
  const certificate = webhook.client_certificate
    ? { fingerprint_sha256: webhook.client_certificate.fingerprint_sha256 }
    : null;
  return {
    ...((fields ? fields.includes('headers') : names.length > 0) ? { headers: names } : {}),
    ...((fields ? fields.includes('client_certificate') : certificate !== null)
      ? { client_certificate: certificate }
      : {}),
  };
}

/** Which of the credentials a change touched (a value set afresh counts, even if equal). */
export function changedCredentials(
  before: Pick<AuditWebhook, 'headers' | 'client_certificate'>,
  after: Pick<AuditWebhook, 'headers' | 'client_certificate'>,
): ('headers' | 'client_certificate')[] {
  const changed: ('headers' | 'client_certificate')[] = [];
  if (JSON.stringify(before.headers ?? []) !== JSON.stringify(after.headers ?? [])) changed.push('headers');
  if (
    (before.client_certificate?.private_key_sealed ?? null) !==
    (after.client_certificate?.private_key_sealed ?? null)
  ) {
    changed.push('client_certificate');
  }
  return changed;
}
