/**
 * What a webhook's signature scheme asks of the routes that create or change it: a secret of the
 * scheme's form, the organization's signing key for `standard-webhooks-ed25519` (made with the
 * webhook, in its transaction), and the create answer (the secret, or the public keys).
 */
import { newStandardSecret } from '../delivery/signature-schemes/index.js';
import { newSigningSecret } from '../delivery/signing.js';
import { ensureSigningKey, publishedKeys } from '../delivery/signing-keys.js';
import type { RouteContext } from '../http/router.js';
import { toAuditWebhookView } from '../http/views.js';
import type { Keyring } from '../keyring/keyring.js';
import type { AuditWebhook, SignatureScheme } from '../model/model.js';
import type { StoreTransaction } from '../store/types.js';

/** A new secret in the form the scheme's receivers read: standard base64 for standard-webhooks. */
export function newSecretFor(scheme: SignatureScheme): string {
  return scheme === 'standard-webhooks' ? newStandardSecret() : newSigningSecret();
}

/** Makes the organization's signing key when `scheme` needs one and there is none yet. */
export async function prepareScheme(
  ctx: RouteContext,
  tx: StoreTransaction,
  keyring: Keyring,
  scheme: SignatureScheme,
): Promise<void> {
  if (scheme !== 'standard-webhooks-ed25519') return;
  await ensureSigningKey(tx, keyring, ctx.services.ids, ctx.organization.id, ctx.at);
}

/** The answer of a create: the secret, shown once, or for the ed25519 scheme the public keys. */
export async function createdAnswer(ctx: RouteContext, webhook: AuditWebhook, secret: string) {
  const view = toAuditWebhookView(webhook);
  if (view.signature_scheme !== 'standard-webhooks-ed25519') return { ...view, signing_secret: secret };
  const keys = await ctx.services.store.webhookSigningKeys.list(ctx.organization.id);
  return { ...view, public_keys: publishedKeys(keys, ctx.services.now()).map((key) => key.public_key) };
}
