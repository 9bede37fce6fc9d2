/**
 * The outbox on SQL. Which webhooks an event is owed to, and the state each delivery starts in, is
 * core's fan-out rule (`outboxTable`), passed as parameters and joined against the organization's
 * webhooks: the statement that stores an event queues its deliveries, and `replay` queues past
 * events again, both by that rule and in one statement each.
 */
import { causingTraceparent, outboxFilterSql, outboxTable, UNQUEUED_EVENT_TYPES } from '@latchkey/core/store';
import type { Runner } from '../runner.js';
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

/** See `DeliveryRepository.replay`. */
export async function replayDeliveries(
  db: Runner,
  t: Tables,
  organizationId: string,
  webhookId: string,
  since: string,
  at: string,
  until?: string,
): Promise<number> {
  const { statuses, states } = outboxTable();
  // The filter as it stands now, its row locked so a change to it waits for this replay to end.
  const { rows } = await db.query<{ event_types: string[] }>(
    `SELECT event_types FROM ${t.webhooks} WHERE organization_id = $1 AND id = $2 FOR SHARE`,
    [organizationId, webhookId],
  );
  if (rows.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO ${t.deliveries} (id, organization_id, webhook_id, event_id, event_seq, state, next_attempt_at, created_at)
     SELECT ${NEW_ID}, $1, w.id, e.id, e.seq, o.state, $4, $4
     FROM ${t.events} e
     JOIN ${t.webhooks} w ON w.id = $2 AND w.organization_id = $1
     JOIN unnest($5::text[], $6::text[]) AS o(status, state) ON o.status = w.status
     WHERE e.organization_id = $1 AND e.occurred_at >= $3 AND e.type <> ALL($7::text[])
       AND ($8::timestamptz IS NULL OR e.occurred_at < $8) AND e.type LIKE ANY($9::text[])
       AND NOT EXISTS (SELECT 1 FROM ${t.deliveries} d WHERE d.webhook_id = $2 AND d.event_id = e.id)
     ORDER BY e.seq`,
    [
      organizationId,
      webhookId,
      since,
      at,
      statuses,
      states,
      UNQUEUED_EVENT_TYPES,
      until ?? null,
      outboxFilterSql.like(rows[0]!.event_types ?? []),
    ],
  );
  return rowCount;
}
