import { recordedLatency } from '../metrics/rollup.js';
import type { DeliveryAttempt, LastDelivery } from '../model/model.js';

/** A webhook's `last_delivery` after an attempt: what every store records. */
export const lastDeliveryOf = (attempt: DeliveryAttempt): LastDelivery => ({
  at: attempt.at,
  event_id: attempt.event_id,
  succeeded: attempt.succeeded,
  status_code: attempt.status_code,
  latency_ms: recordedLatency(attempt.latency_ms),
});
