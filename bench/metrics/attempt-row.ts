/**
 * The attempts table as the bench writes and reads it directly, beside the store rather than through
 * it. The columns below (all but the store's own `position`) are the fields of the port's
 * `DeliveryAttempt`, each text, integer, boolean, timestamp or jsonb: a row read back is an attempt
 * once its timestamps are ISO text and its jsonb is parsed (PGlite may hand over the text).
 */
import type { DeliveryAttempt } from '@latchkey/core/store';

/** The columns the seeding writes, in the order of its SELECT, and the ones it reads back. */
export const ATTEMPT_COLUMNS =
  'id, organization_id, webhook_id, delivery_id, event_id, event_type, attempt, at, succeeded, status_code, latency_ms, error, next_attempt_at';

const field = (name: string, value: unknown): unknown => {
  if (value instanceof Date) return value.toISOString();
  if (name === 'error' && typeof value === 'string') return JSON.parse(value);
  return value;
};

/** A row of `SELECT ${ATTEMPT_COLUMNS}` as the attempt the store would have returned. */
export const asAttempt = (row: Record<string, unknown>): DeliveryAttempt =>
  Object.fromEntries(
    Object.entries(row).map(([name, value]) => [name, field(name, value)]),
  ) as unknown as DeliveryAttempt;
