/**
 * The re-encrypt routine's step for a webhook's credentials: its custom header values and client
 * key, moved to the keyring's current key together, written back only where they are unchanged
 * since they were read (a PATCH in between wins).
 */
import type { AuditWebhook } from '../model/model.js';
import type { LatchkeyStore } from '../store/ports/store.js';
import { clientKeyContext, headerValueContext } from './contexts.js';
import { type Keyring, needsReseal, reseal } from './keyring.js';

/**
 * Moves `webhook`'s sealed header values and client key not under the current key; counts the
 * webhook as examined (and resealed when written) and returns 1 when it had any under an older key.
 */
export async function resealCredentials(
  store: LatchkeyStore,
  keyring: Keyring,
  webhook: AuditWebhook,
  count: { examined: number; resealed: number },
): Promise<number> {
  const from = { headers: webhook.headers ?? [], client_certificate: webhook.client_certificate ?? null };
  if (from.headers.length === 0 && from.client_certificate === null) return 0;
  count.examined++;
  const certificate = from.client_certificate;
  const stale =
    from.headers.some((h) => needsReseal(keyring, h.value_sealed)) ||
    (certificate !== null && needsReseal(keyring, certificate.private_key_sealed));
  if (!stale) return 0;
  const to = {
    headers: from.headers.map((h) =>
      needsReseal(keyring, h.value_sealed)
        ? { ...h, value_sealed: reseal(keyring, h.value_sealed, headerValueContext(webhook.id, h.name)) }
        : h,
    ),
    client_certificate:
      certificate && needsReseal(keyring, certificate.private_key_sealed)
        ? {
            ...certificate,
            private_key_sealed: reseal(keyring, certificate.private_key_sealed, clientKeyContext(webhook.id)),
          }
        : certificate,
  };
  if (await store.auditWebhooks.replaceCredentials(webhook.organization_id, webhook.id, from, to)) {
    count.resealed++;
  }
  return 1;
}
