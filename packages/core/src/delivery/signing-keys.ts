/**
 * The organization's webhook signing keys (`standard-webhooks-ed25519`): the first key is made when
 * a webhook first uses the scheme; a rotation makes the next key current at once, published and
 * signing beside the old one, which keeps signing for the grace period and then retires. So a
 * receiver holding either public key verifies during the grace period, and only the new one after.
 */
import type { IdGenerator } from '../config/ids.js';
import { signingKeyContext } from '../keyring/contexts.js';
import { type Keyring, seal } from '../keyring/keyring.js';
import type { WebhookSigningKey } from '../model.js';
import type { StoreTransaction } from '../store/types.js';
import { newSigningKeyPair } from './signature-schemes/index.js';
import { keySignsAt } from './signing-material.js';

/** How long a rotated secret or key keeps signing beside its successor. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

/** A new key pair for `organizationId`, its private key sealed. */
function newKey(keyring: Keyring, ids: IdGenerator, organizationId: string, at: string): WebhookSigningKey {
  const pair = newSigningKeyPair();
  const id = ids('whk');
  return {
    id,
    organization_id: organizationId,
    public_key: pair.publicKey,
    private_key_sealed: seal(keyring, pair.privateKey, signingKeyContext(id)),
    created_at: at,
    retires_at: null,
  };
}

/** The organization's current key, made now if it has none (race-safe). */
export function ensureSigningKey(
  tx: Pick<StoreTransaction, 'webhookSigningKeys'>,
  keyring: Keyring,
  ids: IdGenerator,
  organizationId: string,
  at: string,
): Promise<WebhookSigningKey> {
  return tx.webhookSigningKeys.ensureCurrent(newKey(keyring, ids, organizationId, at));
}

/** Makes a new current key; the old one retires after the grace period. */
export async function rotateSigningKey(
  tx: Pick<StoreTransaction, 'webhookSigningKeys'>,
  keyring: Keyring,
  ids: IdGenerator,
  organizationId: string,
  at: string,
): Promise<{ current: WebhookSigningKey; retired: WebhookSigningKey | null }> {
  const next = newKey(keyring, ids, organizationId, at);
  const retiresAt = new Date(Date.parse(at) + ROTATION_GRACE_MS).toISOString();
  const retired = await tx.webhookSigningKeys.rotate(next, retiresAt);
  return { current: next, retired };
}

/** The keys that sign at `now` (ms), as the API publishes them. */
export function publishedKeys(keys: readonly WebhookSigningKey[], now: number) {
  return keys
    .filter((key) => keySignsAt(key, now))
    .map((key) => ({
      id: key.id,
      public_key: key.public_key,
      status: key.retires_at === null ? ('current' as const) : ('retiring' as const),
      created_at: key.created_at,
      retires_at: key.retires_at,
    }));
}
