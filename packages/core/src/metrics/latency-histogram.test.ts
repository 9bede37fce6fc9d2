import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LatencyHistogram } from '../model/rollup.js';
import { addLatency, bucketValue, latencyBucket, mergeHistogram, percentiles } from './latency-histogram.js';

/** The exact nearest-rank percentile of raw values. */
function exact(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
}

describe('the latency histogram', () => {
  it('keeps values below 256 ms exactly', () => {
    for (let ms = 0; ms < 256; ms++) expect(bucketValue(latencyBucket(ms))).toBe(ms);
  });

  it('reports every value within 1 % (0.4 % plus rounding) up to 30 days', () => {
    for (const ms of [
      256, 257, 300, 511, 512, 1000, 1023, 1024, 4095, 15_000, 65_537, 3_600_000, 2_592_000_000,
    ]) {
      const reported = bucketValue(latencyBucket(ms));
      expect(Math.abs(reported - ms), `${ms} ms`).toBeLessThanOrEqual(ms * 0.004 + 0.5);
    }
  });

  it('has buckets in the order of their values, with no gaps', () => {
    let previous = -1;
    for (let ms = 0; ms < 70_000; ms++) {
      const bucket = latencyBucket(ms);
      expect(bucket === previous || bucket === previous + 1, `${ms} ms`).toBe(true);
      previous = bucket;
    }
  });

  it('floors fractions and negatives', () => {
    expect(latencyBucket(12.9)).toBe(12);
    expect(latencyBucket(-3)).toBe(0);
  });

  it('gives p50/p95/p99 within 1 % of the exact nearest-rank values (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 60_000 })), {
          minLength: 1,
          maxLength: 400,
        }),
        (values) => {
          const histogram: LatencyHistogram = {};
          for (const v of values) addLatency(histogram, v);
          const got = percentiles(histogram, [50, 95, 99]);
          [50, 95, 99].forEach((p, i) => {
            const want = exact(values, p);
            expect(Math.abs(got[i]! - want)).toBeLessThanOrEqual(Math.max(want * 0.01, 0.5));
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('merges histograms as if the values had been counted together', () => {
    const a: LatencyHistogram = {};
    const b: LatencyHistogram = {};
    const both: LatencyHistogram = {};
    [5, 700, 700, 12_000].forEach((v) => {
      addLatency(a, v);
      addLatency(both, v);
    });
    [5, 90, 3_000].forEach((v) => {
      addLatency(b, v);
      addLatency(both, v);
    });
    mergeHistogram(a, b);
    expect(a).toEqual(both);
  });

  it('answers 0 for an empty histogram', () => {
    expect(percentiles({}, [50, 99])).toEqual([0, 0]);
  });
});
