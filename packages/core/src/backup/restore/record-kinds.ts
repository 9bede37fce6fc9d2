/**
 * The kinds of record a backup holds between its header and its events line, and the table of
 * handlers, one per kind, by which the reader checks each record and the writer writes it. A kind
 * added to the backup format does not compile until both tables handle it.
 */
import type { BackupHeader, BackupRecord } from '../backup-records.js';

/** A record of a backup that is neither its header nor its events line. */
export type RestoredRecord = Exclude<BackupRecord, BackupHeader | { kind: 'events' }>;

/** A restored record of the given kind. */
export type RecordOf<K extends RestoredRecord['kind']> = Extract<RestoredRecord, { kind: K }>;

/** One handler for every kind of record, each given the records of its kind. */
export type ByKind<R> = { [K in RestoredRecord['kind']]: (record: RecordOf<K>) => R };

/** Hands `record` to the handler of its kind. */
export function handleRecord<R>(handlers: ByKind<R>, record: RestoredRecord): R {
  // Each handler takes its own kind; the mapped type cannot say that the two `kind`s are one.
  const handler = handlers[record.kind] as (record: RestoredRecord) => R;
  return handler(record);
}
