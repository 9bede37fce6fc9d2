/**
 * Signed checkpoints of an organization's hash chain. A hash chain shows an edited or removed event,
 * but not a log cut short or rewritten wholesale by someone able to recompute every hash: the
 * checkpoint, signed with an Ed25519 audit key the database never holds, does. Shared by the
 * server (signing) and the client entry (verifying).
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { type Checkpoint, checkpointSignedText } from './checkpoint-form.js';

export type { Checkpoint } from './checkpoint-form.js';

/** The server's audit key, ready to sign. */
export interface AuditKey {
  privateKey: KeyObject;
  /** Raw public key, base64url. */
  publicKey: string;
  keyId: string;
}

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function rawPublicKey(key: KeyObject): Buffer {
  const der = key.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32);
}

/** The key id of a raw public key (base64url). */
export function auditKeyId(publicKey: string): string {
  return createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('hex').slice(0, 16);
}

/** An audit key from an Ed25519 private key (a KeyObject or PKCS#8 PEM). */
export function toAuditKey(privateKey: KeyObject | string): AuditKey {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ed25519') {
    throw new TypeError('The audit key must be an Ed25519 private key.');
  }
  const publicKey = rawPublicKey(createPublicKey(key)).toString('base64url');
  return { privateKey: key, publicKey, keyId: auditKeyId(publicKey) };
}

/** A new audit key: the private key as PKCS#8 PEM (keep it secret) and the raw public key to publish. */
export function generateAuditKey(): { privateKeyPem: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKey: rawPublicKey(publicKey).toString('base64url'),
  };
}

/** The bytes a checkpoint's signature covers. */
function signedBytes(checkpoint: Omit<Checkpoint, 'signature' | 'public_key'>): Buffer {
  return Buffer.from(checkpointSignedText(checkpoint));
}

/** Signs the chain head `{organization, seq, hash}` (and its tree's head, when given) at `signedAt`. */
export function signCheckpoint(
  head: Pick<Checkpoint, 'organization' | 'seq' | 'hash' | 'tree_size' | 'root_hash' | 'verifier_key'>,
  key: AuditKey,
  signedAt: string,
): Checkpoint {
  const unsigned = { ...head, signed_at: signedAt, key_id: key.keyId };
  const signature = sign(null, signedBytes(unsigned), key.privateKey).toString('base64url');
  return { ...unsigned, public_key: key.publicKey, signature };
}

/**
 * Whether `checkpoint` is signed by `publicKey` (raw base64url, or SPKI PEM). The key comes from
 * the verifier, never from the checkpoint itself: a forger would put their own key there.
 */
export function verifyCheckpoint(checkpoint: Checkpoint, publicKey: string): boolean {
  try {
    const key = publicKey.includes('BEGIN PUBLIC KEY')
      ? createPublicKey(publicKey)
      : createPublicKey({
          key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(publicKey, 'base64url')]),
          format: 'der',
          type: 'spki',
        });
    return verify(null, signedBytes(checkpoint), key, Buffer.from(checkpoint.signature, 'base64url'));
  } catch {
    return false;
  }
}
