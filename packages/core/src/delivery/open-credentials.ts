/**
 * Opening what a webhook presents to a receiver that demands credentials, at each attempt: its custom
 * header values and its client key, with the keyring (and the engine's cache of opened values, keyed
 * by the sealed form, so a change is seen at once). A key id this keyring lacks throws its
 * `MissingKeyError`, as for the signing secret: the delivery waits for an engine that has it.
 */
import { clientKeyContext, headerValueContext } from '../keyring/contexts.js';
import { type Keyring, open } from '../keyring/keyring.js';
import type { AuditWebhook } from '../model/model.js';
import type { ClientCredentials } from './sending/client-certificate-agents.js';

/** What an attempt adds to its request. */
export interface OpenedCredentials {
  /** The custom headers, name as given to value. */
  headers: Record<string, string>;
  clientCertificate: ClientCredentials | undefined;
}

const CACHE_LIMIT = 10_000;

/** The webhook's header values and client key, opened (from `cache` when it has them). */
export function openCredentials(
  keyring: Keyring,
  webhook: Pick<AuditWebhook, 'id' | 'headers' | 'client_certificate'>,
  cache?: Map<string, string>,
): OpenedCredentials {
  const opened = (sealed: string, context: string) => {
    const key = `${webhook.id}\n${sealed}`;
    const cached = cache?.get(key);
    if (cached !== undefined) return cached;
    const value = open(keyring, sealed, context);
    if (cache) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(key, value);
    }
    return value;
  };
  // Built with fromEntries: a header named like an Object.prototype member stays a header.
  const headers: Record<string, string> = Object.fromEntries(
    (webhook.headers ?? []).map((h) => [
      h.name,
      opened(h.value_sealed, headerValueContext(webhook.id, h.name)),
    ]),
  );
  const certificate = webhook.client_certificate;
  return {
    headers,
    clientCertificate: certificate
      ? {
          certificate: certificate.certificate,
          privateKey: opened(certificate.private_key_sealed, clientKeyContext(webhook.id)),
        }
      : undefined,
  };
}
