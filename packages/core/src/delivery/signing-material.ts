/**
 * What signs one attempt, opened with the keyring: the webhook's secret (`latchkey`), its secret and,
 * during a rotation's grace period, the one it replaced (`standard-webhooks`), or the organization's
 * current signing key and, during a rotation's grace period, the one it replaced
 * (`standard-webhooks-ed25519`). A value sealed with a key this keyring lacks throws its
 * `MissingKeyError`, as the caller expects.
 */
import { createPrivateKey } from 'node:crypto';
import { secretContext, signingKeyContext } from '../keyring/contexts.js';
import { type Keyring, open } from '../keyring/keyring.js';
import type { WebhookSigningKey } from '../model/model.js';
import type { ClaimedDelivery } from '../store/ports/deliveries.js';
import type { LatchkeyStore } from '../store/ports/store.js';
import type { SigningMaterial } from './signature-schemes/index.js';

/** Opened signing secrets kept by an engine, by webhook and sealed form (so a rotation is seen). */
export type SecretCache = Map<string, string>;
const SECRET_CACHE_LIMIT = 10_000;

/** What opening needs: the keyring, the engine's cache, the store (for the organization's keys). */
export interface MaterialServices {
  keyring: Keyring;
  secrets?: SecretCache | undefined;
  store?: Pick<LatchkeyStore, 'webhookSigningKeys'> | undefined;
  now(): number;
}

/** A sealed value opened with the keyring, or from the engine's cache. */
function opened(services: MaterialServices, sealed: string, context: string): string {
  const key = `${context}\n${sealed}`;
  const cached = services.secrets?.get(key);
  if (cached !== undefined) return cached;
  const value = open(services.keyring, sealed, context);
  if (services.secrets) {
    if (services.secrets.size >= SECRET_CACHE_LIMIT) services.secrets.clear();
    services.secrets.set(key, value);
  }
  return value;
}

/** Whether a key signs at `at` (ms): created by then and not yet retired. */
function keySignsAt(key: WebhookSigningKey, at: number): boolean {
  return Date.parse(key.created_at) <= at && (key.retires_at === null || Date.parse(key.retires_at) > at);
}

/**
 * The keys that sign at `at` (ms), current first: the current key and at most one retiring key,
 * the newest. A rotation retires every earlier key at once, so that is all there is; choosing here
 * too keeps a delivery's cost and its header's size bounded whatever the store holds (a restore).
 */
export function signingKeysAt(keys: readonly WebhookSigningKey[], at: number): WebhookSigningKey[] {
  const signing = keys.filter((key) => keySignsAt(key, at));
  const newest = (list: WebhookSigningKey[]) =>
    list.reduce<WebhookSigningKey | null>(
      (best, key) =>
        best === null || Date.parse(key.created_at) >= Date.parse(best.created_at) ? key : best,
      null,
    );
  const current = newest(signing.filter((key) => key.retires_at === null));
  const retiring = newest(signing.filter((key) => key.retires_at !== null));
  return [current, retiring].filter((key): key is WebhookSigningKey => key !== null);
}

/** The signing material of `webhook` at the services' time. */
export async function signingMaterial(
  services: MaterialServices,
  webhook: ClaimedDelivery['webhook'],
): Promise<SigningMaterial> {
  const scheme = webhook.signature_scheme ?? 'latchkey';
  if (scheme === 'standard-webhooks-ed25519') {
    if (!services.store) throw new Error('signing with the organization keys needs the store');
    const keys = signingKeysAt(
      await services.store.webhookSigningKeys.list(webhook.organization_id),
      services.now(),
    );
    if (keys.length === 0) throw new Error('the organization has no webhook signing key');
    const privateKeys = keys.map((key) =>
      createPrivateKey(opened(services, key.private_key_sealed, signingKeyContext(key.id))),
    );
    return { scheme, privateKeys };
  }
  const secret = opened(services, webhook.secret_sealed, secretContext(webhook.id));
  if (scheme === 'latchkey') return { scheme, secret };
  const previous = webhook.previous_secret;
  const secrets =
    previous && Date.parse(previous.until) > services.now()
      ? [secret, opened(services, previous.sealed, secretContext(webhook.id))]
      : [secret];
  return { scheme, secrets };
}
