/**
 * A signed checkpoint's record and the text its signature covers, without any crypto module: the
 * server signs and Node verifies this text (`checkpoint.ts`), a browser verifies it with WebCrypto
 * (`client/web-crypto.ts`), so both read the same RFC 8785 form.
 */
import canonicalize from 'canonicalize';

/** A signed statement of an organization's chain head. */
export interface Checkpoint {
  organization: string;
  /** The head's seq (0 for an empty chain). */
  seq: number;
  /** The head's hash (64 zeros for an empty chain). */
  hash: string;
  /** The Merkle tree's size at this head (equal to `seq`), when the server keeps the tree; signed. */
  tree_size?: number;
  /** The RFC 6962 root hash of the tree of `tree_size` events, standard base64; signed. */
  root_hash?: string;
  /**
   * The verifier key of the organization's checkpoint notes, in `GET …/activity/checkpoint`'s
   * answer: signed, so a holder of the audit public key learns the note key from the server.
   */
  verifier_key?: string;
  /** RFC 3339 UTC time of signing, with milliseconds. */
  signed_at: string;
  /** Names the audit key: the first 16 hex digits of the SHA-256 of its raw public key. */
  key_id: string;
  /** The raw Ed25519 public key, base64url: a convenience; auditors pin the key out of band. */
  public_key: string;
  /** base64url Ed25519 signature over the JCS of this record without `signature` and `public_key`. */
  signature: string;
}

/** The text a checkpoint's signature covers: the JCS of the record without `signature` and `public_key`. */
export function checkpointSignedText(checkpoint: Omit<Checkpoint, 'signature' | 'public_key'>): string {
  const { organization, seq, hash, signed_at, key_id, tree_size, root_hash, verifier_key } = checkpoint;
  // A checkpoint made before the tree (or without the note key) has no such fields: the same text as then.
  const tree = tree_size === undefined && root_hash === undefined ? {} : { tree_size, root_hash };
  const note = verifier_key === undefined ? {} : { verifier_key };
  return canonicalize({ organization, seq, hash, signed_at, key_id, ...tree, ...note }) ?? '';
}
