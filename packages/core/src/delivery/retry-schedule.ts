/**
 * When an audit webhook delivery is tried again: a schedule of delays, each spread by a random
 * jitter so receivers that failed together are not hit together again, and a receiver's own
 * `Retry-After` (on 429 and 503) honoured within bounds. Pure: the random source is passed in.
 */

/**
 * The default delays, in seconds, before each attempt: the first at once, then 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h. Eight attempts over about a day and aAhalf; after the last, the delivery
 * is exhausted and its webhook moves to `dead_letter`.
 */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

/** How deliveries are retried. */
export interface RetryPolicy {
  /** Delay in seconds before each attempt, the first one included (usually 0). */
  schedule: readonly number[];
  /** Each delay is multiplied by a random factor in [1 - jitter, 1 + jitter]. Default 0.2. */
  jitter: number;
  /** A `Retry-After` longer than this many seconds is cut to it. Default 6 hours. */
  maxRetryAfterSeconds: number;
}

/** The default policy: {@link DEFAULT_RETRY_SCHEDULE}, ±20 % jitter, `Retry-After` up to 6 hours. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  schedule: DEFAULT_RETRY_SCHEDULE,
  jitter: 0.2,
  maxRetryAfterSeconds: 6 * 3_600,
};

/**
 * Reads a schedule written as comma-separated seconds (`LATCHKEY_RETRY_SCHEDULE=0,1,2`), so a test
 * can run a whole schedule in seconds. Throws a `RangeError` naming the bad entry.
 */
export function parseRetrySchedule(text: string): number[] {
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length === 0 || entries.length > 100)
    throw new RangeError('a retry schedule has 1 to 100 entries');
  return entries.map((entry, index) => {
    const seconds = Number(entry);
    if (entry === '' || !Number.isFinite(seconds) || seconds < 0 || seconds > 7 * 86_400) {
      throw new RangeError(
        `retry schedule entry ${index + 1} ("${entry}") is not a number of seconds from 0 to 604800`,
      );
    }
    return seconds;
  });
}

/**
 * Checks a policy a host passes in: a non-empty schedule of finite non-negative delays, a jitter in
 * [0, 1) and a positive `Retry-After` cap. Throws a `RangeError` otherwise.
 */
export function checkRetryPolicy(policy: RetryPolicy): RetryPolicy {
  if (policy.schedule.length === 0) throw new RangeError('the retry schedule is empty');
  for (const seconds of policy.schedule) {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`bad retry delay ${seconds}`);
  }
  if (!(policy.jitter >= 0 && policy.jitter < 1)) throw new RangeError('jitter must be in [0, 1)');
  if (!(policy.maxRetryAfterSeconds > 0)) throw new RangeError('maxRetryAfterSeconds must be positive');
  return policy;
}

/**
 * Reads a `Retry-After` header: delay-seconds, or an HTTP date (relative to `nowMs`). Returns the
 * delay in seconds (0 for a date in the past), or null when there is none or it cannot be read.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/[A-Za-z]/.test(text)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1_000));
}

/** What to do after a failed attempt. */
export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

/**
 * After `attemptsMade` attempts (the failed one included), when to try again, or that the schedule
 * is exhausted. `random` returns a number in [0, 1) (`Math.random` in production). A `retryAfter`
 * (seconds, from a 429 or 503) replaces the scheduled delay, without jitter, bounded by
 * `maxRetryAfterSeconds`; it never extends the schedule past its last attempt.
 */
export function nextRetry(
  policy: RetryPolicy,
  attemptsMade: number,
  random: () => number,
  retryAfterSeconds: number | null = null,
): RetryDecision {
  if (attemptsMade >= policy.schedule.length) return { retry: false };
  if (retryAfterSeconds !== null) {
    return { retry: true, delayMs: Math.min(retryAfterSeconds, policy.maxRetryAfterSeconds) * 1_000 };
  }
  const base = policy.schedule[attemptsMade]! * 1_000;
  const factor = 1 + policy.jitter * (2 * random() - 1);
  return { retry: true, delayMs: Math.round(base * factor) };
}
