/**
 * A webhook's custom headers and client certificate in a backup: opened into the (encrypted)
 * backup as its signing secret is, and sealed again at restore with this server's keyring, bound to
 * the webhook's new id. A backup without them (written before they existed) restores a webhook
 * without them.
 */
import { inspectClientCertificate } from '../delivery/sending/client-certificate.js';
import { clientKeyContext, headerValueContext } from '../keyring/contexts.js';
import { type Keyring, open, seal } from '../keyring/keyring.js';
import type { AuditWebhook } from '../model/model.js';

/** The credentials of a backup's webhook line, as written. */
export interface BackedUpCredentials {
  headers?: Record<string, string>;
  client_certificate?: { certificate: string; private_key: string };
}

/** The webhook's credentials in clear for its backup line; fields only when it has them. */
export function backupCredentials(keyring: Keyring, webhook: AuditWebhook): BackedUpCredentials {
  const headers = webhook.headers ?? [];
  const certificate = webhook.client_certificate;
  return {
    ...(headers.length > 0
      ? {
          headers: Object.fromEntries(
            headers.map((h) => [
              h.name,
              open(keyring, h.value_sealed, headerValueContext(webhook.id, h.name)),
            ]),
          ),
        }
      : {}),
    ...(certificate
      ? {
          client_certificate: {
            certificate: certificate.certificate,
            private_key: open(keyring, certificate.private_key_sealed, clientKeyContext(webhook.id)),
          },
        }
      : {}),
  };
}

/**
 * Why a backup's client certificate cannot be restored (unparsable, or a key that is not its own),
 * or null. An expired certificate is restored: the receiver, not the restore, refuses it.
 */
export function backedUpCertificateFault(credentials: BackedUpCredentials): string | null {
  const given = credentials.client_certificate;
  if (!given) return null;
  const inspected = inspectClientCertificate(given.certificate, given.private_key, Number.NEGATIVE_INFINITY);
  return inspected.ok ? null : `the audit webhook's client certificate is refused: ${inspected.message}`;
}

/** The credentials sealed for the restored webhook `id` (checked by {@link backedUpCertificateFault}). */
export function restoredCredentials(
  keyring: Keyring,
  id: string,
  credentials: BackedUpCredentials,
): Pick<AuditWebhook, 'headers' | 'client_certificate'> {
  const given = credentials.client_certificate;
  const inspected = given
    ? inspectClientCertificate(given.certificate, given.private_key, Number.NEGATIVE_INFINITY)
    : null;
  if (inspected && !inspected.ok) throw new Error(inspected.message);
  const certificate = inspected?.ok ? inspected.value : null;
  return {
    headers: Object.entries(credentials.headers ?? {}).map(([name, value]) => ({
      name,
      value_sealed: seal(keyring, value, headerValueContext(id, name)),
    })),
    client_certificate: certificate
      ? {
          certificate: certificate.certificate,
          private_key_sealed: seal(keyring, certificate.privateKey, clientKeyContext(id)),
          subject: certificate.subject,
          issuer: certificate.issuer,
          fingerprint_sha256: certificate.fingerprint_sha256,
          not_before: certificate.not_before,
          not_after: certificate.not_after,
        }
      : null,
  };
}
