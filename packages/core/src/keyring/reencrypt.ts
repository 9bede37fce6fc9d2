/**
 * The re-encrypt routine: moves every value sealed at rest to the keyring's current key, so an old
 * key can leave the ring. It walks audit webhook signing secrets (with their custom header values
 * and client keys), the organizations' webhook signing keys and secret values in batches and
 * writes each back only where it is unchanged since it was read (a push or a rotation in between
 * wins). Secret values stored before a keyring was configured are sealed too, and so are the kept
 * values of secret versions. Safe to run while the
 * service runs, and again: a value already under the current key is left alone. After a pass that
 * moved every value it found under an older key, the store forgets the older key ids, so a keyring
 * without them is accepted at the next start.
 */

import type { StoredValue, StoredValueRef, StoredVersionValue } from '../store/ports/secrets.js';
import type { LatchkeyStore } from '../store/ports/store.js';
import { secretContext, secretValueContext, signingKeyContext } from './contexts.js';
import { type Keyring, needsReseal, reseal, seal, sealedKeyId } from './keyring.js';
import { resealCredentials } from './reencrypt-credentials.js';

/** Options of {@link reencryptAtRest}. */
export interface ReencryptOptions {
  /** Values read and written per step. Default 500. */
  batchSize?: number;
  /** Called after each batch with the counts so far. */
  onProgress?: (counts: ReencryptCounts) => void;
}

/** What the routine found and moved. */
export interface ReencryptCounts {
  /** Signing secrets examined, and moved to the current key. */
  signingSecrets: { examined: number; resealed: number };
  /** Webhooks' custom headers and client keys examined (per webhook), and moved to the current key. */
  webhookCredentials: { examined: number; resealed: number };
  /** Secret values examined, and moved to the current key (or sealed for the first time). */
  secretValues: { examined: number; resealed: number };
  /** Kept values of secret versions examined, and moved to the current key (or sealed). */
  versionValues: { examined: number; resealed: number };
  /** Webhook signing private keys examined, and moved to the current key. */
  signingKeys: { examined: number; resealed: number };
}

export async function reencryptAtRest(
  store: LatchkeyStore,
  keyring: Keyring,
  options: ReencryptOptions = {},
): Promise<ReencryptCounts> {
  const batchSize = options.batchSize ?? 500;
  if (!(Number.isInteger(batchSize) && batchSize > 0))
    throw new RangeError('batchSize must be a positive integer');
  const counts: ReencryptCounts = {
    signingSecrets: { examined: 0, resealed: 0 },
    webhookCredentials: { examined: 0, resealed: 0 },
    secretValues: { examined: 0, resealed: 0 },
    versionValues: { examined: 0, resealed: 0 },
    signingKeys: { examined: 0, resealed: 0 },
  };
  // Values found under an older key; when every one was moved, no older key id is in use any more.
  let found = 0;
  for (const organizationId of await store.auditWebhooks.organizationIds()) {
    for (const webhook of await store.auditWebhooks.list(organizationId)) {
      counts.signingSecrets.examined++;
      found += await resealCredentials(store, keyring, webhook, counts.webhookCredentials);
      // A secret still in its rotation grace period is not moved, but keeps its key id remembered.
      if (webhook.previous_secret && needsReseal(keyring, webhook.previous_secret.sealed)) found++;
      if (!needsReseal(keyring, webhook.secret_sealed)) continue;
      found++;
      const moved = reseal(keyring, webhook.secret_sealed, secretContext(webhook.id));
      if (await store.auditWebhooks.replaceSecret(organizationId, webhook.id, webhook.secret_sealed, moved)) {
        counts.signingSecrets.resealed++;
      }
    }
  }
  found += await resealSigningKeys(store, keyring, counts.signingKeys);
  options.onProgress?.(counts);
  found += await walk<StoredValue>(counts.secretValues, batchSize, {
    scan: (after, limit) => store.secrets.scanValues(after, limit),
    replace: (changes) => store.secrets.replaceValues(changes),
    progress: () => options.onProgress?.(counts),
    keyring,
  });
  found += await walk<StoredVersionValue>(counts.versionValues, batchSize, {
    scan: (after, limit) => store.secrets.scanVersionValues(after, limit),
    replace: (changes) => store.secrets.replaceVersionValues(changes),
    progress: () => options.onProgress?.(counts),
    keyring,
  });
  const resealed =
    counts.signingSecrets.resealed +
    counts.webhookCredentials.resealed +
    counts.secretValues.resealed +
    counts.versionValues.resealed +
    counts.signingKeys.resealed;
  if (found === resealed) {
    // Only ids of this keyring: one another instance has just rotated to is not this pass's to judge.
    const older = (await store.keyIds.list())
      .map((entry) => entry.key_id)
      .filter((id) => id !== keyring.current && keyring.keys.has(id));
    await store.keyIds.forget(older);
  }
  return counts;
}

/** A keyset walk over stored values (heads, or versions' kept values) and what it needs. */
interface ValueWalk<R extends StoredValueRef & { value: string }> {
  scan(after: R | null, limit: number): Promise<R[]>;
  replace(changes: (R & { from: string; to: string })[]): Promise<number>;
  progress(): void;
  keyring: Keyring;
}

/**
 * Walks every value of one kind in batches, moving each not under the current key; counts into
 * `count` and returns how many it found under an older key (or unsealed).
 */
async function walk<R extends StoredValueRef & { value: string }>(
  count: { examined: number; resealed: number },
  batchSize: number,
  { scan, replace, progress, keyring }: ValueWalk<R>,
): Promise<number> {
  let found = 0;
  let after: R | null = null;
  for (;;) {
    const page = await scan(after, batchSize);
    if (page.length === 0) break;
    count.examined += page.length;
    const changes = page
      .filter((row) => needsReseal(keyring, row.value))
      .map((row) => {
        // Versions are sealed where their head is: the same environment and key.
        const context = secretValueContext(row.environmentId, row.key);
        const to =
          sealedKeyId(row.value) === null
            ? seal(keyring, row.value, context)
            : reseal(keyring, row.value, context);
        return { ...row, from: row.value, to };
      });
    found += changes.length;
    if (changes.length > 0) count.resealed += await replace(changes);
    progress();
    after = page[page.length - 1]!;
    if (page.length < batchSize) break;
  }
  return found;
}

/** Moves the organizations' webhook signing private keys to the current key; returns how many it found. */
async function resealSigningKeys(
  store: LatchkeyStore,
  keyring: Keyring,
  count: { examined: number; resealed: number },
): Promise<number> {
  let found = 0;
  for (const organizationId of await store.webhookSigningKeys.organizationIds()) {
    for (const key of await store.webhookSigningKeys.list(organizationId)) {
      count.examined++;
      if (!needsReseal(keyring, key.private_key_sealed)) continue;
      found++;
      const moved = reseal(keyring, key.private_key_sealed, signingKeyContext(key.id));
      if (
        await store.webhookSigningKeys.replacePrivateKey(
          organizationId,
          key.id,
          key.private_key_sealed,
          moved,
        )
      ) {
        count.resealed++;
      }
    }
  }
  return found;
}
