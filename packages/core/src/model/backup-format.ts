/**
 * The backup format's own facts, which the stream that writes a backup, the schemas restore reads
 * it with and the store's restore sessions all share: its version, the counts of its records and the
 * manifest a client computes over it. A leaf: it imports nothing, so each of them may read it.
 */

/**
 * The backup format this code writes (and restore reads). Format 2 added the header's signed
 * `checkpoint`; restore refuses format 1, whose history nothing vouches for. Format 3 added the
 * `secret_version` lines (each key's history); a format 2 backup restores each head as its key's
 * one version. Format 4 has the checkpoint sign the Merkle tree's head too (`tree_size`,
 * `root_hash`), which restore checks the rebuilt tree against; an older server, whose checkpoint
 * schema has no such fields, refuses format 4 by its version rather than by an unknown field.
 */
export const BACKUP_FORMAT_VERSION = 4;

/** How many records of each kind a backup held. */
export type BackupCounts = Record<
  | 'project'
  | 'environment'
  | 'secret'
  | 'deleted_secret'
  | 'secret_version'
  | 'member'
  | 'device'
  | 'audit_webhook'
  | 'workload_identity'
  | 'change_request'
  | 'event',
  number
>;

/** Counts of a backup that holds nothing yet. */
export const emptyBackupCounts = (): BackupCounts => ({
  project: 0,
  environment: 0,
  secret: 0,
  deleted_secret: 0,
  secret_version: 0,
  member: 0,
  device: 0,
  audit_webhook: 0,
  workload_identity: 0,
  change_request: 0,
  event: 0,
});

/** What the client computed over the backup's content before sending it: restore checks it all. */
export interface BackupManifest {
  /** SHA-256 of the whole content (every line, as sent), in lower-case hex. */
  sha256: string;
  /** Length of the content in UTF-8 bytes. */
  bytes: number;
  /** How many records of each kind the content holds. */
  counts: BackupCounts;
}
