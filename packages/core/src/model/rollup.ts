/**
 * A delivery rollup's shape (counts, the latency buckets of the metrics payload and a fine latency
 * histogram): what the store's delivery port keeps and `metrics/` adds up.
 */

/** The keys of `latency_buckets`: inclusive ranges of integer milliseconds. */
export const LATENCY_BUCKET_KEYS = [
  '0_100_ms',
  '101_300_ms',
  '301_1000_ms',
  '1001_3000_ms',
  '3001_plus_ms',
] as const;

export type LatencyBucketKey = (typeof LATENCY_BUCKET_KEYS)[number];

/** The figures of one webhook over one minute or hour, or of several merged. */
export interface Rollup {
  attempted: number;
  succeeded: number;
  failed: number;
  buckets: Record<LatencyBucketKey, number>;
  histogram: LatencyHistogram;
}

/** Bucket index → count, only buckets that were hit. */
export type LatencyHistogram = Record<string, number>;
