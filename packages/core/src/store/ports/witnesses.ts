/** Port: the witnesses an organization registered, and the cosignatures they sent for its tree heads. */

/** A registered witness: a C2SP note key name and its raw Ed25519 public key. */
export interface Witness {
  organization_id: string;
  /** The witness's key name (a signed-note key name: no whitespace, no `+`). */
  name: string;
  /** The raw 32-byte Ed25519 public key, standard base64. */
  public_key: string;
  created_at: string;
}

/** A witness's verified cosignature of one tree head. */
export interface Cosignature {
  organization_id: string;
  tree_size: number;
  /** The tree head's root hash, standard base64. */
  root_hash: string;
  /** The cosigning witness's name. */
  witness: string;
  /** The cosignature's own timestamp, POSIX seconds. */
  timestamp: number;
  /** The note signature line as the witness sent it, without its newline. */
  line: string;
}

/** What {@link WitnessRepository.add} did. */
export type WitnessAddResult = 'added' | 'duplicate' | 'limit';

/** Witnesses are unique per organization by name and by public key; cosignatures by head and witness. */
export interface WitnessRepository {
  /**
   * Inserts a witness unless the organization has one of that name or public key (`duplicate`) or
   * already `max` of them (`limit`): one atomic step, so two concurrent adds cannot both pass.
   */
  add(witness: Witness, max: number): Promise<WitnessAddResult>;
  /** The organization's witnesses, by name. */
  list(organizationId: string): Promise<Witness[]>;
  /** Removes a witness and every cosignature it made, atomically; the witness, or null when absent. */
  remove(organizationId: string, name: string): Promise<Witness | null>;
  /**
   * Keeps `cosignature` if its witness is still registered (else false, nothing written): it
   * replaces that witness's cosignature of the same head only when newer. Then, in the same atomic
   * step, drops the cosignatures of all but the `keepHeads` largest tree sizes of the organization,
   * so storage stays bounded whatever witnesses send.
   */
  putCosignature(cosignature: Cosignature, keepHeads: number): Promise<boolean>;
  /** The cosignatures of one tree head, by witness name. */
  cosignatures(organizationId: string, treeSize: number, rootHash: string): Promise<Cosignature[]>;
}
