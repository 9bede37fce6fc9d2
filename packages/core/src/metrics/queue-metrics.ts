/**
 * The delivery queue as Prometheus gauges, per organization (its slug, which the API only accepts
 * in `[a-z0-9-]` form): how many deliveries are pending, and how long the oldest due one has waited.
 */
import type { DeliveryBacklog } from '../store/ports/deliveries.js';
import { escapeLabel } from './prometheus.js';

/** The two gauges for `backlog` (organization ids resolved to slugs) at `now` (milliseconds). */
export function renderQueueMetrics(
  backlog: readonly (DeliveryBacklog & { organization: string })[],
  now: number,
): string {
  const depth = backlog.map(
    (b) => `latchkey_delivery_queue_depth{organization="${escapeLabel(b.organization)}"} ${b.pending}`,
  );
  const age = backlog.map((b) => {
    const waited = b.oldestDueAt === null ? 0 : Math.max(0, now - Date.parse(b.oldestDueAt)) / 1000;
    return `latchkey_delivery_oldest_due_age_seconds{organization="${escapeLabel(b.organization)}"} ${waited}`;
  });
  return `${[
    '# HELP latchkey_delivery_queue_depth Pending deliveries (due, or waiting for a retry), by organization.',
    '# TYPE latchkey_delivery_queue_depth gauge',
    ...depth,
    '# HELP latchkey_delivery_oldest_due_age_seconds How long the oldest due delivery has waited (0 with none due).',
    '# TYPE latchkey_delivery_oldest_due_age_seconds gauge',
    ...age,
  ].join('\n')}\n`;
}
