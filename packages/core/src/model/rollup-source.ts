/**
 * What the metrics read from a store: the organization's webhooks, their minute rollups and running
 * totals. Declared in the model, beneath the ports, so the metrics need nothing of the ports; the
 * delivery port extends {@link RollupSource}, and any `LatchkeyStore` is a {@link MetricsSource}.
 */
import type { AuditWebhook } from './model.js';
import type { Rollup } from './rollup.js';

/** The rollups a store keeps for the metrics, as they are read. */
export interface RollupSource {
  /** The organization's minute rollups starting in any of `ranges` (half-open, ISO times), merged per webhook. */
  minuteRollups(organizationId: string, ranges: { from: string; to: string }[]): Promise<Map<string, Rollup>>;
  /**
   * For each minute boundary in `boundaries` (ISO times): every webhook of the organization's
   * running total, the sum of its attempts that started before the boundary (webhooks with none: an
   * empty rollup or absent). A total is taken once, from the latest earlier total plus the rollups
   * since (minutes at the ends, whole hours between), in a step no attempt being recorded for the
   * webhook interleaves with, then kept right by `record`; so reading one costs the same whatever
   * the traffic. A base in the same hour as the new total, not on the hour, may be dropped (a window
   * read every minute then keeps about one total per webhook and hour).
   */
  totalsBefore(organizationId: string, boundaries: string[]): Promise<Map<string, Map<string, Rollup>>>;
}

/** A store as the metrics read it. */
export interface MetricsSource {
  auditWebhooks: { list(organizationId: string): Promise<AuditWebhook[]> };
  deliveries: RollupSource;
}
