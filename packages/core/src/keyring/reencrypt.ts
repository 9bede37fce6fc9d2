/**
 * The re-encrypt routine: moves every value sealed at rest to the keyring's current key, so an old
 * key can leave the ring. It walks audit webhook signing secrets and secret values in batches and
 * writes each back only where it is unchanged since it was read (a push or a rotation in between
 * wins). Secret values stored before a keyring was configured are sealed too. Safe to run while the
 * service runs, and again: a value already under the current key is left alone. After a pass that
 * moved every value it found under an older key, the store forgets the older key ids, so a keyring
 * without them is accepted at the next start.
 */

import type { LatchkeyStore } from '../store/ports/store.js';
import { secretContext, secretValueContext } from './contexts.js';
import { type Keyring, needsReseal, reseal, seal, sealedKeyId } from './keyring.js';

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
  /** Secret values examined, and moved to the current key (or sealed for the first time). */
  secretValues: { examined: number; resealed: number };
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
    secretValues: { examined: 0, resealed: 0 },
  };
  // Values found under an older key; when every one was moved, no older key id is in use any more.
  let found = 0;
  for (const organizationId of await store.auditWebhooks.organizationIds()) {
    for (const webhook of await store.auditWebhooks.list(organizationId)) {
      counts.signingSecrets.examined++;
      if (!needsReseal(keyring, webhook.secret_sealed)) continue;
      found++;
      const moved = reseal(keyring, webhook.secret_sealed, secretContext(webhook.id));
      if (await store.auditWebhooks.replaceSecret(organizationId, webhook.id, webhook.secret_sealed, moved)) {
        counts.signingSecrets.resealed++;
      }
    }
  }
  options.onProgress?.(counts);
  let after: { environmentId: string; key: string } | null = null;
  for (;;) {
    const page = await store.secrets.scanValues(after, batchSize);
    if (page.length === 0) break;
    counts.secretValues.examined += page.length;
    const changes = page
      .filter((row) => needsReseal(keyring, row.value))
      .map((row) => {
        const context = secretValueContext(row.environmentId, row.key);
        const to =
          sealedKeyId(row.value) === null
            ? seal(keyring, row.value, context)
            : reseal(keyring, row.value, context);
        return { environmentId: row.environmentId, key: row.key, from: row.value, to };
      });
    found += changes.length;
    if (changes.length > 0) counts.secretValues.resealed += await store.secrets.replaceValues(changes);
    options.onProgress?.(counts);
    const last = page[page.length - 1]!;
    after = { environmentId: last.environmentId, key: last.key };
    if (page.length < batchSize) break;
  }
  if (found === counts.signingSecrets.resealed + counts.secretValues.resealed) {
    // Only ids of this keyring: one another instance has just rotated to is not this pass's to judge.
    const older = (await store.keyIds.list())
      .map((entry) => entry.key_id)
      .filter((id) => id !== keyring.current && keyring.keys.has(id));
    await store.keyIds.forget(older);
  }
  return counts;
}
