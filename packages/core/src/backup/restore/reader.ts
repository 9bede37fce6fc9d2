/**
 * Reading a staged backup: splits the parts into lines, checks each against its schema, the order
 * of kinds, references (an environment's project, a secret's environment), duplicates and the
 * activity chain, and at the end the SHA-256, length and counts the manifest promised. Any fault
 * is a 422 `backup_invalid` naming the line. It reads in time linear in the content's size, holds
 * one line at most, and gives the event loop a turn after every part and every few hundred lines, so
 * a large restore does not hold up other requests (the memory store's calls never wait on I/O).
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { GENESIS_HASH, verifyChain } from '../../activity/chain.js';
import { LatchkeyError } from '../../errors/latchkey-error.js';
import { type BackupCounts, type BackupManifest, emptyBackupCounts } from '../../model/backup-format.js';
import type { ActivityEvent } from '../../model/model.js';
import {
  BackupEventSchema,
  type BackupHeader,
  type BackupRecord,
  BackupRecordSchema,
} from '../backup-records.js';
import { LineSplitter } from '../line-splitter.js';
import { KeyHistoryCheck } from './key-history.js';
import { type ByKind, handleRecord, type RecordOf, type RestoredRecord } from './record-kinds.js';

/** Lines read between two turns of the event loop (besides one turn after each part). */
const LINES_PER_TURN = 500;

/** What the reader yields: the header, each record, then each event. */
export type BackupItem =
  | { kind: 'header'; header: BackupHeader }
  | { kind: 'record'; record: RestoredRecord }
  | { kind: 'event'; event: ActivityEvent };

/** The order of kinds in a backup; an environment's secrets follow it, so the two share a rank. */
const RANK: Record<BackupRecord['kind'], number> = {
  latchkey_backup: 0,
  project: 1,
  environment: 2,
  secret: 2,
  deleted_secret: 2,
  secret_version: 2,
  member: 3,
  device: 4,
  audit_webhook: 5,
  workload_identity: 6,
  change_request: 7,
  events: 8,
};

/** A 422 naming the line at fault. */
export function invalidBackup(line: number | null, message: string): LatchkeyError {
  const where = line === null ? 'the backup' : `line ${line}`;
  return new LatchkeyError('backup_invalid', `The backup is not valid: ${where}: ${message}`, {
    details: [{ path: line === null ? 'backup' : `line.${line}`, message }],
  });
}

/**
 * Yields the backup's items in order. With `verify`, events are checked against their schema and
 * the chain; without (the second pass of a restore, over content whose SHA-256 the first pass
 * checked and this pass checks again), they are only parsed. A line longer than `maxLineBytes` is
 * refused. Throws on the first fault.
 */
export async function* readBackup(
  parts: AsyncIterable<string>,
  manifest: BackupManifest,
  verify: boolean,
  maxLineBytes: number,
): AsyncGenerator<BackupItem> {
  const hash = createHash('sha256');
  const state = new LineState(verify);
  const lines = new LineSplitter(maxLineBytes, () =>
    invalidBackup(
      state.line + 1,
      `it is longer than ${maxLineBytes} bytes, the longest line this server reads`,
    ),
  );
  let bytes = 0;
  let sinceTurn = 0;
  for await (const part of parts) {
    hash.update(part, 'utf8');
    bytes += Buffer.byteLength(part, 'utf8');
    // A turn between hashing a part and reading its lines, each a few milliseconds of a large part.
    await nextTurn();
    for (const line of lines.push(part)) {
      const item = state.take(line);
      if (item) yield item;
      if (++sinceTurn === LINES_PER_TURN) {
        sinceTurn = 0;
        await nextTurn();
      }
    }
    sinceTurn = 0;
    await nextTurn();
  }
  if (lines.holding) throw invalidBackup(state.line + 1, 'the last line is cut short (no newline)');
  if (bytes !== manifest.bytes || hash.digest('hex') !== manifest.sha256) {
    throw invalidBackup(null, 'its content does not match the SHA-256 and length of its manifest');
  }
  state.finish(manifest.counts);
}

/** The checks that need what came before a line. */
class LineState {
  line = 0;
  private rank = -1;
  private header: BackupHeader | null = null;
  private inEvents = false;
  private throughSeq = 0;
  private head: { seq: number; hash: string } | null = null;
  private readonly counts = emptyBackupCounts();
  private readonly projects = new Set<string>();
  /** `project/environment` of each environment seen */
  private readonly environments = new Set<string>();
  private readonly keys = new KeyHistoryCheck(invalidBackup);
  private readonly unique = new Set<string>();
  /** The ids of the backup's devices, which its change requests name. */
  private readonly devices = new Set<string>();

  constructor(private readonly verify: boolean) {}

  take(text: string): BackupItem | null {
    this.line++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw invalidBackup(this.line, 'not JSON');
    }
    return this.inEvents ? this.event(value) : this.record(value);
  }

  private event(value: unknown): BackupItem {
    const event = value as ActivityEvent;
    if (this.verify) {
      if (!BackupEventSchema.safeParse(value).success)
        throw invalidBackup(this.line, 'not an activity event');
      if (verifyChain([event], this.head) !== -1)
        throw invalidBackup(this.line, `the activity chain breaks at event ${event.seq}`);
    }
    this.head = { seq: event.seq, hash: event.hash };
    this.counts.event++;
    return { kind: 'event', event };
  }

  private record(value: unknown): BackupItem | null {
    const parsed = BackupRecordSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.length ? ` (${issue.path.join('.')})` : '';
      throw invalidBackup(this.line, `not a valid backup record${field}: ${issue?.message ?? 'invalid'}`);
    }
    const record = parsed.data;
    const rank = RANK[record.kind];
    if ((this.line === 1) !== (record.kind === 'latchkey_backup') || rank < this.rank) {
      throw invalidBackup(this.line, `a ${record.kind} record is out of place`);
    }
    // Past the last secret: every key's history must have reached its head.
    if (this.rank <= RANK.secret && rank > RANK.secret) this.keys.finish(this.header!.format_version >= 3);
    this.rank = rank;
    if (record.kind === 'latchkey_backup') {
      this.header = record;
      return { kind: 'header', header: record };
    }
    if (record.kind === 'events') {
      this.inEvents = true;
      this.throughSeq = record.through_seq;
      return null;
    }
    handleRecord(this.checks, record);
    this.counts[record.kind]++;
    return { kind: 'record', record };
  }

  /** What each kind of record must hold against the lines before it: ids, names and references. */
  private readonly checks: ByKind<void> = {
    project: (record) => {
      this.once(`project/${record.slug}`);
      this.once(`id/${record.id}`);
      this.projects.add(record.slug);
    },
    environment: (record) => {
      if (!this.projects.has(record.project))
        throw invalidBackup(this.line, `environment ${record.slug} names an unknown project`);
      this.once(`id/${record.id}`);
      const path = `${record.project}/${record.slug}`;
      if (this.environments.has(path)) throw invalidBackup(this.line, `environment ${path} appears twice`);
      this.environments.add(path);
    },
    secret: (record) => this.secretHead(record),
    deleted_secret: (record) => this.secretHead(record),
    secret_version: (record) => this.secretVersion(record),
    member: (record) => this.once(`member/${record.user}`),
    device: (record) => {
      this.once(`id/${record.id}`);
      this.devices.add(record.id);
    },
    audit_webhook: (record) => this.once(`id/${record.id}`),
    workload_identity: (record) => {
      this.once(`id/${record.id}`);
      this.once(`workload_identity/${record.name}`);
    },
    change_request: (record) => this.changeRequest(record),
  };

  /** A key's head (its value, or its deletion), in an environment of the backup. */
  private secretHead(record: RecordOf<'secret' | 'deleted_secret'>): void {
    if (!this.environments.has(`${record.project}/${record.environment}`))
      throw invalidBackup(this.line, `secret ${record.key} names an unknown environment`);
    this.keys.head(this.line, record);
  }

  private secretVersion(record: RecordOf<'secret_version'>): void {
    const path = `${record.project}/${record.environment}`;
    if (!this.environments.has(path))
      throw invalidBackup(
        this.line,
        `version ${record.version} of ${record.key} names an unknown environment`,
      );
    if (record.deleted && record.value !== undefined)
      throw invalidBackup(this.line, `version ${record.version} of ${record.key} is a delete with a value`);
    // A format 2 backup's heads become their keys' versions (see the writer): it carries none.
    if (this.header!.format_version < 3)
      throw invalidBackup(
        this.line,
        `a format ${this.header!.format_version} backup has no secret_version lines`,
      );
    this.keys.version(this.line, record);
  }

  /**
   * A request lands in an environment of the backup and names its devices: a backup carries every
   * device but a workload's, which lives minutes and is never backed up, so only a request a
   * workload made (its author an identity's id) may name a device the backup does not hold.
   */
  private changeRequest(record: RecordOf<'change_request'>): void {
    if (!this.environments.has(`${record.project}/${record.environment}`))
      throw invalidBackup(this.line, `change request ${record.id} names an unknown environment`);
    const fromWorkload = record.created_by.startsWith('wid_');
    if (!fromWorkload && !this.devices.has(record.device_id))
      throw invalidBackup(
        this.line,
        `change request ${record.id} names device ${record.device_id}, not in the backup`,
      );
    for (const { device_id } of record.approvals) {
      if (device_id !== undefined && !this.devices.has(device_id))
        throw invalidBackup(
          this.line,
          `an approval of change request ${record.id} names device ${device_id}, not in the backup`,
        );
    }
    this.once(`id/${record.id}`);
  }

  private once(key: string): void {
    if (this.unique.has(key)) throw invalidBackup(this.line, `${key} appears twice`);
    this.unique.add(key);
  }

  finish(expected: BackupCounts): void {
    if (!this.header) throw invalidBackup(null, 'it is empty');
    if (!this.inEvents) throw invalidBackup(null, 'it has no events line: it is cut short');
    const { chain } = this.header;
    const last = this.head ?? { seq: 0, hash: GENESIS_HASH };
    if (this.counts.event !== this.throughSeq || last.seq !== chain.seq || last.hash !== chain.hash) {
      throw invalidBackup(null, 'its activity log does not end at the chain head its header names');
    }
    for (const [kind, count] of Object.entries(this.counts)) {
      if (expected[kind as keyof BackupCounts] !== count)
        throw invalidBackup(
          null,
          `it holds ${count} ${kind} records, its manifest says ${expected[kind as keyof BackupCounts]}`,
        );
    }
  }
}
