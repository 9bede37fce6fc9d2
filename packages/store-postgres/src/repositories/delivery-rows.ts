/** Rows of the delivery outbox and the attempt log, as the port's records. */
import type { Delivery, DeliveryAttempt } from '@latchkey/core/store';
import { iso, isoOrNull, json } from '../rows.js';

export const DELIVERY_COLUMNS =
  'id, organization_id, webhook_id, event_id, event_seq, state, attempts, next_attempt_at, lease_until, created_at, traceparent';
/** The columns of the attempts table that `toAttempt` reads (all but the table's `position`). */
export const ATTEMPT_COLUMNS =
  'id, organization_id, webhook_id, delivery_id, event_id, event_type, attempt, at, succeeded, status_code, latency_ms, error, next_attempt_at';

export const toDelivery = (r: Record<string, unknown>): Delivery => ({
  id: r['id'] as string,
  organization_id: r['organization_id'] as string,
  webhook_id: r['webhook_id'] as string,
  event_id: r['event_id'] as string,
  event_seq: Number(r['event_seq']),
  state: r['state'] as Delivery['state'],
  attempts: Number(r['attempts']),
  next_attempt_at: iso(r['next_attempt_at']),
  lease_until: isoOrNull(r['lease_until']),
  created_at: iso(r['created_at']),
  traceparent: (r['traceparent'] as string | null | undefined) ?? null,
});

/** A row of the attempts table (ATTEMPT_COLUMNS) as the port returns it. */
export const toAttempt = (r: Record<string, unknown>): DeliveryAttempt => ({
  id: r['id'] as string,
  organization_id: r['organization_id'] as string,
  webhook_id: r['webhook_id'] as string,
  delivery_id: (r['delivery_id'] as string | null) ?? null,
  event_id: r['event_id'] as string,
  event_type: r['event_type'] as string,
  attempt: Number(r['attempt']),
  at: iso(r['at']),
  succeeded: Boolean(r['succeeded']),
  status_code: r['status_code'] === null ? null : Number(r['status_code']),
  latency_ms: Number(r['latency_ms']),
  error: r['error'] === null || r['error'] === undefined ? null : json(r['error']),
  next_attempt_at: isoOrNull(r['next_attempt_at']),
});
