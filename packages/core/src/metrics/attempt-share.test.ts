import fc from 'fast-check';
import { expect, it } from 'vitest';
import { attemptShare, countsBefore } from './attempt-share.js';
import { addAttempt, emptyRollup, HOUR_MS, latencyBucketKey, MINUTE_MS } from './rollup.js';

it('an attempt adds one to its minute and hour, its latency bucket and one histogram bucket', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 4_000_000_000_000 }),
      fc.boolean(),
      fc.double({ min: -5, max: 100_000, noNaN: true }),
      (at, succeeded, latency) => {
        const share = attemptShare({ at: new Date(at).toISOString(), succeeded, latency_ms: latency });
        const expected = emptyRollup();
        addAttempt(expected, { ok: succeeded, latencyMs: latency });
        expect(share.rollup).toEqual(expected);
        expect(share.starts.minute % MINUTE_MS).toBe(0);
        expect(share.starts.hour % HOUR_MS).toBe(0);
        expect(at - share.starts.minute).toBeLessThan(MINUTE_MS);
        expect(at - share.starts.hour).toBeLessThan(HOUR_MS);
        expect(share.bucket).toBe(latencyBucketKey(Math.max(0, Math.round(latency))));
        expect(Object.keys(share.rollup.histogram)).toEqual([share.histogramBucket]);
      },
    ),
  );
});

it('an attempt counts in every running total before a boundary after its minute', () => {
  const share = attemptShare({
    at: new Date(10 * MINUTE_MS + 5).toISOString(),
    succeeded: true,
    latency_ms: 3,
  });
  expect(countsBefore(share, 10 * MINUTE_MS)).toBe(false);
  expect(countsBefore(share, 11 * MINUTE_MS)).toBe(true);
});
