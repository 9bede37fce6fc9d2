/**
 * A fine latency histogram whose size does not grow with the number of attempts: integer
 * milliseconds are counted exactly below 256 ms and, above, in 128 sub-buckets per power of two
 * (the scheme of HdrHistogram with 8 significant bits). A bucket is at most 1/128 of its lowest value
 * wide and is reported by its midpoint, so a percentile read from it is within 0.4 % (plus at most
 * half a millisecond of rounding) of the exact nearest-rank value. Stored sparse, as JSON.
 */
import type { LatencyHistogram } from '../model/rollup.js';

const EXACT = 256;
const SUB_BITS = 7; // 128 sub-buckets per power of two above EXACT

/** The bucket of a latency in milliseconds (negative and fractional values are floored at 0 / down). */
export function latencyBucket(ms: number): number {
  const value = Math.max(0, Math.floor(ms));
  if (value < EXACT) return value;
  const magnitude = Math.floor(Math.log2(value)); // 8 for [256, 512)
  const shift = magnitude - SUB_BITS; // bucket width is 2^shift
  const sub = value / 2 ** shift; // in [128, 256)
  return EXACT + (magnitude - 8) * 128 + (Math.floor(sub) - 128);
}

/** The lowest value of a bucket and its width. */
function bounds(bucket: number): { low: number; width: number } {
  if (bucket < EXACT) return { low: bucket, width: 1 };
  const magnitude = 8 + Math.floor((bucket - EXACT) / 128);
  const width = 2 ** (magnitude - SUB_BITS);
  return { low: (128 + ((bucket - EXACT) % 128)) * width, width };
}

/** The value a bucket reports: exact below 256 ms, else its midpoint rounded to a millisecond. */
export function bucketValue(bucket: number): number {
  const { low, width } = bounds(bucket);
  return width === 1 ? low : Math.round(low + (width - 1) / 2);
}

/** Counts one latency (or `count` of them) into `histogram`, in place. */
export function addLatency(histogram: LatencyHistogram, ms: number, count = 1): void {
  const key = String(latencyBucket(ms));
  histogram[key] = (histogram[key] ?? 0) + count;
}

// The loops below use for…in rather than Object.entries: a dense histogram has about a thousand
// keys, a metrics read adds up a dozen of them, and not building the entry pairs halves the time.

/** Adds every count of `from` into `into`, in place. */
export function mergeHistogram(into: LatencyHistogram, from: LatencyHistogram): void {
  for (const key in from) into[key] = (into[key] ?? 0) + from[key]!;
}

/** Takes every count of `from` out of `into`, in place (a later running total minus an earlier one). */
export function subtractHistogram(into: LatencyHistogram, from: LatencyHistogram): void {
  for (const key in from) {
    const left = (into[key] ?? 0) - from[key]!;
    if (left > 0) into[key] = left;
    else delete into[key];
  }
}

/**
 * Nearest-rank percentiles (`p` in (0, 100]): the value of rank ⌈p/100 × N⌉ in ascending order, read
 * from the bucket holding it. 0 for an empty histogram.
 */
export function percentiles(histogram: LatencyHistogram, ps: readonly number[]): number[] {
  // Counts laid out by bucket index, so ranks are found in one ascending walk without sorting keys.
  let last = -1;
  for (const key in histogram) if (histogram[key]! > 0) last = Math.max(last, Number(key));
  if (last < 0) return ps.map(() => 0);
  const counts = new Float64Array(last + 1);
  let total = 0;
  for (const key in histogram) {
    const count = histogram[key]!;
    if (count > 0) {
      counts[Number(key)] = count;
      total += count;
    }
  }
  return ps.map((p) => {
    const rank = Math.max(1, Math.ceil((p / 100) * total));
    let seen = 0;
    for (let bucket = 0; bucket <= last; bucket++) {
      seen += counts[bucket]!;
      if (seen >= rank) return bucketValue(bucket);
    }
    return bucketValue(last);
  });
}
