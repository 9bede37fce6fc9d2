/**
 * Making an organization's backup: its lines, read in one snapshot where the store offers one (so a
 * push meanwhile is wholly in it or wholly out) from the chain head it signs first, streamed in the
 * organization's backup slot, then recorded as one `backup_created` event with what it held.
 */
import { type Acting, actingEvent } from '../activity/acting.js';
import type { AuditKey } from '../activity/checkpoint/checkpoint.js';
import { signTreeHead, treeChainHead } from '../activity/checkpoint/tree-checkpoint.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Keyring } from '../keyring/keyring.js';
import { type BackupCounts, emptyBackupCounts } from '../model/backup-format.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { LatchkeyStore, StoreTransaction } from '../store/types.js';
import { inBackupSlot } from './backup-slots.js';
import { backupLines, type RecordViews } from './backup-stream.js';

/** What a backup reads, opens, signs and records with. */
export interface BackupDeps {
  store: LatchkeyStore;
  /** Current time in milliseconds. */
  now(): number;
  ids: IdGenerator;
  /** Opens the values sealed at rest. */
  keyring: Keyring | undefined;
  /** Signs the checkpoint a restore needs; without one, no backup is made. */
  auditKey: AuditKey | undefined;
}

/**
 * The acting organization's backup as it is streamed (nothing is read before its first line is
 * asked for); a 503 without an audit key, and the refusals of {@link inBackupSlot}. `views` are the
 * API's record views each line is written from.
 */
export function createBackup(
  deps: BackupDeps,
  acting: Acting,
  views: RecordViews,
): AsyncIterable<string | Uint8Array> {
  const key = deps.auditKey;
  if (!key) {
    throw new LatchkeyError(
      'service_unavailable',
      'Backups need an audit key (core option auditKey): a restore takes a backup’s activity history in only under its signed checkpoint.',
    );
  }
  // One backup of an organization at a time, and a few in all: each may hold a connection.
  return inBackupSlot(deps.store, acting.organization.id, deps.now(), withEvent(deps, acting, key, views));
}

/** The backup's lines as `view` reads them, from the chain head it reads first; fills `counts`. */
async function* contentOf(
  deps: BackupDeps,
  acting: Acting,
  key: AuditKey,
  views: RecordViews,
  view: StoreTransaction,
  counts: BackupCounts,
  covered: { seq: number },
) {
  // The head the backup covers with its tree's root, signed: restore takes the history in only
  // under this checkpoint, and only when the tree its events rebuild has this root.
  const treeHead = await treeChainHead(view, acting.organization.id);
  const checkpoint = signTreeHead(acting.organization.slug, treeHead, key, deps.now());
  const head = { seq: treeHead.seq, hash: treeHead.hash };
  covered.seq = head.seq;
  yield* backupLines(view, deps.keyring, acting.organization, head, checkpoint, acting.at, counts, views);
}

/** The backup, read in one snapshot where the store offers one, then `backup_created`. */
async function* withEvent(deps: BackupDeps, acting: Acting, key: AuditKey, views: RecordViews) {
  const { store } = deps;
  const counts = emptyBackupCounts();
  const covered = { seq: 0 };
  const read = (view: StoreTransaction) => contentOf(deps, acting, key, views, view, counts, covered);
  yield* store.snapshot ? store.snapshot(acting.organization.id, read) : read(store);
  await store.activity.append(
    acting.organization.id,
    actingEvent(deps.ids, acting, 'backup_created', { counts, chain_seq: covered.seq }),
  );
}
