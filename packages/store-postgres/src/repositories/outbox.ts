/**
 * The outbox on SQL. Which webhooks an event is owed to, and the state each delivery starts in, is
 * core's fan-out rule (`outboxTable`), passed as parameters and joined against the organization's
 * webhooks: the statement that stores an event queues its deliveries, and a replay's batches
 * (`replays.ts`) queue past events again, both by that rule.
 */
import { causingTraceparent, outboxFilterSql, outboxTable } from '@latchkey/core/store';
import type { Tables } from '../schema-name.js';

/** A new delivery's id, in SQL. */
export const NEW_ID = `'dlv_' || replace(gen_random_uuid()::text, '-', '')`;

/**
 * The `INSERT` that queues the deliveries of the event the same statement stores (a data-modifying
 * CTE of `storeEventStatement`): $1 organization, $2 seq, $3 event id, $7 occurred_at, and the rule
 * for the event's type as $10, $11 and $12, and the request's traceparent as $13 ({@link queueParams}): a webhook is owed the event by its
 * status, and when its filter is empty or holds an entry that selects the type. The filter is read
 * in this statement, so a filter changed later applies to later events only.
 */
export function queueStatement(t: Tables): string {
  return `INSERT INTO ${t.deliveries} (id, organization_id, webhook_id, event_id, event_seq, state, next_attempt_at, created_at, traceparent)
      SELECT ${NEW_ID}, $1, w.id, $3, $2, o.state, $7, $7, $13
      FROM ${t.webhooks} w JOIN unnest($10::text[], $11::text[]) AS o(status, state) ON o.status = w.status
      WHERE w.organization_id = $1 AND (cardinality(w.event_types) = 0 OR w.event_types && $12::text[])`;
}

/**
 * The parameters $10 to $13 of {@link queueStatement}: the rule for an event of `eventType`, and the
 * `traceparent` of the request being answered (null when untraced).
 */
export function queueParams(eventType: string): unknown[] {
  const { statuses, states } = outboxTable(eventType);
  return [statuses, states, outboxFilterSql.selecting(eventType), causingTraceparent()];
}
