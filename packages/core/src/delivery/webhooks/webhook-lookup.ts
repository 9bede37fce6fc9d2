/** What every webhook change needs first: a keyring to seal with, and the webhook it names. */
import { LatchkeyError } from '../../errors/latchkey-error.js';
import type { Keyring } from '../../keyring/keyring.js';
import type { AuditWebhook } from '../../model/model.js';
import type { LatchkeyStore } from '../../store/types.js';

/** The keyring, or a 503 saying the host has not configured one (webhooks keep secrets sealed). */
export function requireKeyring(keyring: Keyring | undefined): Keyring {
  if (!keyring) {
    throw new LatchkeyError(
      'service_unavailable',
      'Audit webhooks need encryption at rest, and this server has no keyring configured (core option keyring).',
    );
  }
  return keyring;
}

/** The webhook a store call answered, or a 404 when it was gone. */
export function found<T>(webhook: T | null | undefined): T {
  if (!webhook) throw new LatchkeyError('not_found', 'The audit webhook was not found.');
  return webhook;
}

/** Webhook `webhookId` of the organization, or a 404 (another organization's webhook is not found). */
export async function findWebhook(
  store: LatchkeyStore,
  organizationId: string,
  webhookId: string,
): Promise<AuditWebhook> {
  return found(await store.auditWebhooks.get(organizationId, webhookId));
}
