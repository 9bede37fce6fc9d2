/**
 * The CSV form of an activity export (RFC 4180, CRLF), written by csv-stringify rather than quoted
 * by hand. A cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or
 * CR) gets a leading `'`, so a hostile user name cannot run code on an auditor's machine. The CSV
 * is for reading; the NDJSON export is the exact, verifiable form.
 */
import { stringify } from 'csv-stringify/sync';
import type { ActivityEvent } from '../../model/model.js';

/** The columns, in order: a published format, so a new column goes at the end, never between. */
const CSV_COLUMNS = [
  'seq',
  'id',
  'type',
  'occurred_at',
  'organization',
  'project',
  'environment',
  'actor_type',
  'actor_id',
  'device_id',
  'data',
  'prev_hash',
  'hash',
] as const;

const FORMULA = /^[=+\-@\t\r]/;
const defuse = (cell: string) => (FORMULA.test(cell) ? `'${cell}` : cell);

function row(event: ActivityEvent): string[] {
  return [
    String(event.seq),
    event.id,
    event.type,
    event.occurred_at,
    event.organization,
    event.project ?? '',
    event.environment ?? '',
    event.actor.type,
    event.actor.id,
    event.device_id ?? '',
    JSON.stringify(event.data),
    event.prev_hash,
    event.hash,
  ].map(defuse);
}

/** The header line. */
export function csvHeader(): string {
  return stringify([[...CSV_COLUMNS]], { record_delimiter: 'windows' });
}

/** The lines of a batch of events. */
export function csvRows(events: readonly ActivityEvent[]): string {
  return stringify(events.map(row), { record_delimiter: 'windows' });
}
