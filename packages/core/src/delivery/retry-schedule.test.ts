import { describe, expect, it } from 'vitest';
import {
  checkRetryPolicy,
  DEFAULT_RETRY_POLICY,
  DEFAULT_RETRY_SCHEDULE,
  nextRetry,
  parseRetryAfter,
  parseRetrySchedule,
} from './retry-schedule.js';

describe('the retry schedule', () => {
  it('is the documented default: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE).toEqual([0, 5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600]);
  });

  it('waits the scheduled delay after each failure, then gives up after the last attempt', () => {
    const middle = () => 0.5; // a jitter factor of exactly 1
    const delays: number[] = [];
    for (let made = 1; ; made++) {
      const decision = nextRetry(DEFAULT_RETRY_POLICY, made, middle);
      if (!decision.retry) break;
      delays.push(decision.delayMs / 1000);
    }
    expect(delays).toEqual(DEFAULT_RETRY_SCHEDULE.slice(1));
    expect(nextRetry(DEFAULT_RETRY_POLICY, 8, middle)).toEqual({ retry: false });
  });

  it('spreads each delay by at most ±20 %, reaching both ends', () => {
    const seen: number[] = [];
    for (const r of [0, 0.25, 0.5, 0.75, 0.999999]) {
      const decision = nextRetry(DEFAULT_RETRY_POLICY, 2, () => r);
      if (!decision.retry) throw new Error('expected a retry');
      seen.push(decision.delayMs);
    }
    expect(Math.min(...seen)).toBe(240_000);
    expect(Math.max(...seen)).toBe(360_000);
    for (const delay of seen) expect(Math.abs(delay - 300_000)).toBeLessThanOrEqual(60_000);
  });

  it('takes a Retry-After instead of the schedule, within its cap, but not past the last attempt', () => {
    expect(nextRetry(DEFAULT_RETRY_POLICY, 1, Math.random, 42)).toEqual({ retry: true, delayMs: 42_000 });
    expect(nextRetry(DEFAULT_RETRY_POLICY, 1, Math.random, 10 ** 9)).toEqual({
      retry: true,
      delayMs: 6 * 3600 * 1000,
    });
    expect(nextRetry(DEFAULT_RETRY_POLICY, 8, Math.random, 1)).toEqual({ retry: false });
  });
});

describe('parseRetrySchedule (LATCHKEY_RETRY_SCHEDULE)', () => {
  it('reads comma-separated seconds', () => {
    expect(parseRetrySchedule('0, 1,2 ,0.5')).toEqual([0, 1, 2, 0.5]);
  });

  it.each(['', '1,,2', '1,-2', 'a', '1,Infinity', '999999999'])('refuses %j, naming the entry', (text) => {
    expect(() => parseRetrySchedule(text)).toThrow(RangeError);
  });
});

describe('checkRetryPolicy', () => {
  it.each([
    { ...DEFAULT_RETRY_POLICY, schedule: [] },
    { ...DEFAULT_RETRY_POLICY, schedule: [0, -1] },
    { ...DEFAULT_RETRY_POLICY, jitter: 1 },
    { ...DEFAULT_RETRY_POLICY, maxRetryAfterSeconds: 0 },
  ])('refuses a bad policy (%#)', (policy) => {
    expect(() => checkRetryPolicy(policy)).toThrow(RangeError);
  });

  it('accepts the default', () => {
    expect(checkRetryPolicy(DEFAULT_RETRY_POLICY)).toBe(DEFAULT_RETRY_POLICY);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 24 Nov 2026 12:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Tue, 24 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it.each([null, undefined, '', '-5', '1.5', 'soon', '12345678901'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeNull();
  });
});
