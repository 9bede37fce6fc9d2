/**
 * The parameters of a multi-row insert of sealed events, one array a column (`unnest` in the SQL):
 * seq, id, type, project, environment, occurred_at and the event's JSON body. A seal and a restore
 * write events with it.
 */
import type { ActivityEvent } from '@latchkey/core/store';

export function eventColumns(events: readonly ActivityEvent[]): unknown[][] {
  return [
    events.map((e) => e.seq),
    events.map((e) => e.id),
    events.map((e) => e.type),
    events.map((e) => e.project ?? null),
    events.map((e) => e.environment ?? null),
    events.map((e) => e.occurred_at),
    events.map((e) => JSON.stringify(e)),
  ];
}
