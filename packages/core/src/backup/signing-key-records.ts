/**
 * The organization's webhook signing keys in a backup: listed in its header (opened, as the backup
 * holds signing secrets opened: the age file is what protects them), and restored sealed with this
 * server's keyring under fresh ids. The backup's current key becomes current; the key the
 * organization had (a restore with force) retires at once.
 */
import { z } from 'zod';
import { signingKeyContext } from '../keyring/contexts.js';
import { type Keyring, open, seal } from '../keyring/keyring.js';
import type { WebhookSigningKey } from '../model.js';
import type { StoreTransaction } from '../store/types.js';

const Time = z.string().datetime({ offset: true });

/** One key as the backup header lists it. */
export const SigningKeyRecord = z.strictObject({
  id: z.string().max(100),
  public_key: z.string().regex(/^whpk_[A-Za-z0-9+/]{43}=$/),
  private_key: z.string().max(400).describe('PKCS#8 PEM'),
  created_at: Time,
  retires_at: Time.nullable(),
});

/** The header's optional list (absent in backups made before signing keys). */
export const SigningKeyRecords = z.array(SigningKeyRecord).max(100).optional();

/** The organization's keys as the backup header lists them. */
export async function signingKeyRecords(
  store: Pick<StoreTransaction, 'webhookSigningKeys'>,
  keyring: Keyring | undefined,
  organizationId: string,
): Promise<z.infer<typeof SigningKeyRecord>[]> {
  const keys = await store.webhookSigningKeys.list(organizationId);
  if (keys.length > 0 && !keyring) throw new Error('A keyring is needed to back up webhook signing keys.');
  return keys.map((key) => ({
    id: key.id,
    public_key: key.public_key,
    private_key: open(keyring!, key.private_key_sealed, signingKeyContext(key.id)),
    created_at: key.created_at,
    retires_at: key.retires_at,
  }));
}

/** Writes the backup's keys into the organization, sealed with `keyring`, each under a new id. */
export async function restoreSigningKeys(
  tx: Pick<StoreTransaction, 'webhookSigningKeys'>,
  keyring: Keyring,
  ids: (prefix: string) => string,
  organizationId: string,
  at: string,
  records: readonly z.infer<typeof SigningKeyRecord>[],
): Promise<void> {
  const toKey = (record: z.infer<typeof SigningKeyRecord>): WebhookSigningKey => {
    const id = ids('whk');
    return {
      id,
      organization_id: organizationId,
      public_key: record.public_key,
      private_key_sealed: seal(keyring, record.private_key, signingKeyContext(id)),
      created_at: record.created_at,
      retires_at: record.retires_at,
    };
  };
  await tx.webhookSigningKeys.insertMany(records.filter((r) => r.retires_at !== null).map(toKey));
  const current = records.find((r) => r.retires_at === null);
  if (current) await tx.webhookSigningKeys.rotate(toKey(current), at);
}
