/**
 * The organization's webhook signing keys (`standard-webhooks-ed25519`): the first key is made when
 * a webhook first uses the scheme; a rotation makes the next key current at once, published and
 * signing beside the old one, which keeps signing for the grace period and then retires. So a
 * receiver holding either public key verifies during the grace period, and only the new one after.
 * As with a webhook's secrets, one previous key at most: a rotation during the grace period retires
 * the key still retiring at once. Rotations are counted (at most {@link MAX_SIGNING_KEYS_PER_DAY}
 * keys made in any 24 h) and the oldest retired keys are deleted past {@link MAX_STORED_SIGNING_KEYS},
 * so a delivery's signature header and an organization's keys stay small.
 */

import { LatchkeyError } from '../errors/latchkey-error.js';
import { signingKeyContext } from '../keyring/contexts.js';
import { type Keyring, seal } from '../keyring/keyring.js';
import type { WebhookSigningKey } from '../model/model.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { StoreTransaction } from '../store/types.js';
import { newSigningKeyPair } from './signature-schemes/index.js';
import { signingKeysAt } from './signing-material.js';

/** How long a rotated secret or key keeps signing beside its successor. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

/** The window rotations are counted in: the grace period. */
const ROTATION_WINDOW_MS = 24 * 3_600_000;

/** Keys an organization may make in any 24 h (its first key included); a rotation past it is 429. */
export const MAX_SIGNING_KEYS_PER_DAY = 10;

/**
 * Keys an organization stores: the current one, the retiring one and the newest retired ones; the
 * oldest retired keys are deleted at each rotation past it. Above the daily count, so no key made
 * in the window is deleted before it is counted.
 */
export const MAX_STORED_SIGNING_KEYS = 12;

/** The record of a key pair of `organizationId` under a new id, its private key sealed to that id. */
export function sealedSigningKey(
  keyring: Keyring,
  ids: IdGenerator,
  organizationId: string,
  key: Pick<WebhookSigningKey, 'public_key' | 'created_at' | 'retires_at'> & { private_key: string },
): WebhookSigningKey {
  const id = ids('whk');
  return {
    id,
    organization_id: organizationId,
    public_key: key.public_key,
    private_key_sealed: seal(keyring, key.private_key, signingKeyContext(id)),
    created_at: key.created_at,
    retires_at: key.retires_at,
  };
}

/** A new key pair for `organizationId`, its private key sealed. */
function newKey(keyring: Keyring, ids: IdGenerator, organizationId: string, at: string): WebhookSigningKey {
  const { publicKey, privateKey } = newSigningKeyPair();
  const key = { public_key: publicKey, private_key: privateKey, created_at: at, retires_at: null };
  return sealedSigningKey(keyring, ids, organizationId, key);
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

/**
 * Makes a new current key; the old one retires after the grace period, a key still retiring retires
 * now, the oldest retired keys past the bound are deleted. A 429 `rate_limited` (with `Retry-After`)
 * when the organization made {@link MAX_SIGNING_KEYS_PER_DAY} keys in the last 24 h.
 */
export async function rotateSigningKey(
  tx: Pick<StoreTransaction, 'webhookSigningKeys'>,
  keyring: Keyring,
  ids: IdGenerator,
  organizationId: string,
  at: string,
): Promise<{ current: WebhookSigningKey; retired: WebhookSigningKey | null }> {
  const next = newKey(keyring, ids, organizationId, at);
  const atMs = Date.parse(at);
  const retiresAt = new Date(atMs + ROTATION_GRACE_MS).toISOString();
  const outcome = await tx.webhookSigningKeys.rotate(next, retiresAt, {
    at,
    windowStart: new Date(atMs - ROTATION_WINDOW_MS).toISOString(),
    maxPerWindow: MAX_SIGNING_KEYS_PER_DAY,
    keep: MAX_STORED_SIGNING_KEYS,
  });
  if (!outcome.ok) {
    const opensAt = Date.parse(outcome.oldestInWindow) + ROTATION_WINDOW_MS;
    throw new LatchkeyError(
      'rate_limited',
      `The organization made ${MAX_SIGNING_KEYS_PER_DAY} webhook signing keys in the last 24 h; rotate again after ${new Date(opensAt).toISOString()}.`,
      { retryAfterSeconds: (opensAt - atMs) / 1000 },
    );
  }
  return { current: next, retired: outcome.retired };
}

/** The keys that sign at `now` (ms), as the API publishes them: the current one, and one retiring. */
export function publishedKeys(keys: readonly WebhookSigningKey[], now: number) {
  return signingKeysAt(keys, now)
    .reverse()
    .map((key) => ({
      id: key.id,
      public_key: key.public_key,
      status: key.retires_at === null ? ('current' as const) : ('retiring' as const),
      created_at: key.created_at,
      retires_at: key.retires_at,
    }));
}
