/**
 * What a webhook's signature scheme asks of create and change: a secret of the scheme's form, and
 * the organization's signing key for `standard-webhooks-ed25519` (made with the webhook, in its
 * transaction).
 */

import type { Keyring } from '../../keyring/keyring.js';
import type { AuditWebhook, SignatureScheme } from '../../model/model.js';
import type { IdGenerator } from '../../runtime/ids.js';
import type { StoreTransaction } from '../../store/types.js';
import { newStandardSecret } from '../signature-schemes/index.js';
import { newSigningSecret } from '../signing.js';
import { ensureSigningKey } from '../signing-keys.js';
import type { WebhookCaller } from './caller.js';

/** The scheme a webhook signs with: `latchkey` for webhooks stored before schemes existed. */
export const schemeOf = (webhook: Pick<AuditWebhook, 'signature_scheme'>): SignatureScheme =>
  webhook.signature_scheme ?? 'latchkey';

/** A new secret in the form the scheme's receivers read: standard base64 for standard-webhooks. */
export function newSecretFor(scheme: SignatureScheme): string {
  return scheme === 'standard-webhooks' ? newStandardSecret() : newSigningSecret();
}

/** Makes the organization's signing key when `scheme` needs one and there is none yet. */
export async function prepareScheme(
  tx: StoreTransaction,
  deps: { keyring: Keyring; ids: IdGenerator },
  caller: WebhookCaller,
  scheme: SignatureScheme,
): Promise<void> {
  if (scheme !== 'standard-webhooks-ed25519') return;
  await ensureSigningKey(tx, deps.keyring, deps.ids, caller.organization.id, caller.at);
}
