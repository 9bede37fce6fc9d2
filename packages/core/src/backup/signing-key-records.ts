/**
 * The organization's webhook signing keys in a backup: listed in its header (opened, as the backup
 * holds signing secrets opened: the age file is what protects them), checked before anything is
 * written (Ed25519 key pairs whose public half is the private one's, at most one current, none
 * retiring later than a rotation made at the restore would), and restored sealed with this
 * server's keyring under fresh ids. They replace the keys the organization had (a restore with
 * force), so no key of the replaced content keeps signing.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { ROTATION_GRACE_MS, sealedSigningKey } from '../delivery/signing-keys.js';
import { signingKeyContext } from '../keyring/contexts.js';
import { type Keyring, open } from '../keyring/keyring.js';
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

/**
 * Why the backup's keys cannot be restored at `at`, or null: a key that is not an Ed25519 PKCS#8
 * key, a public key its private key does not derive, more than one current key, or a retirement
 * later than `at` plus the rotation grace period (which would keep a key of the backup signing
 * beside its successor for longer than any rotation does).
 */
export function signingKeysFault(
  records: readonly z.infer<typeof SigningKeyRecord>[],
  at: string,
): string | null {
  const latest = Date.parse(at) + ROTATION_GRACE_MS;
  for (const [index, record] of records.entries()) {
    const which = `webhook signing key ${index + 1} of ${records.length}`;
    let key: KeyObject;
    try {
      key = createPrivateKey(record.private_key);
    } catch {
      return `${which} has a private key that is not a PEM key`;
    }
    if (key.asymmetricKeyType !== 'ed25519') {
      return `${which} is an ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`;
    }
    if (publicKeyOf(key) !== record.public_key) {
      return `${which} has a public key that is not the one its private key derives`;
    }
    if (record.retires_at !== null && Date.parse(record.retires_at) > latest) {
      return `${which} retires at ${record.retires_at}, more than 24 h after the restore: a rotation retires a key within 24 h`;
    }
  }
  if (records.filter((r) => r.retires_at === null).length > 1) {
    return 'more than one webhook signing key is current (retires_at null): an organization has one';
  }
  return null;
}

/** The `whpk_` public key of an Ed25519 private key: its raw 32 bytes in standard base64. */
function publicKeyOf(key: KeyObject): string {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return `whpk_${Buffer.from(jwk.x!, 'base64url').toString('base64')}`;
}

/**
 * Replaces the organization's keys with the backup's, sealed with `keyring`, each under a new id
 * (`signingKeysFault` has passed them: at most one is current). A backup without keys leaves the
 * organization none; the first webhook to need one makes it.
 */
export async function restoreSigningKeys(
  tx: Pick<StoreTransaction, 'webhookSigningKeys'>,
  keyring: Keyring | undefined,
  ids: (prefix: string) => string,
  organizationId: string,
  records: readonly z.infer<typeof SigningKeyRecord>[],
): Promise<void> {
  await tx.webhookSigningKeys.deleteAll(organizationId);
  if (records.length === 0) return;
  if (!keyring) throw new Error('A keyring is needed to restore webhook signing keys.');
  await tx.webhookSigningKeys.insertMany(
    records.map((record) => sealedSigningKey(keyring, ids, organizationId, record)),
  );
}
