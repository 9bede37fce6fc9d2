/** Runs a transaction again when the database aborted it to break a deadlock or a serialization conflict. */
import { isRetryable } from '../failures.js';

/** Attempts in all, before the last error is thrown. */
const TRANSACTION_ATTEMPTS = 5;

/** Calls `attempt` until it succeeds, fails for another reason, or has been tried {@link TRANSACTION_ATTEMPTS} times. */
export async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetryable(error) || tries >= TRANSACTION_ATTEMPTS) throw error;
      // A little random wait, growing with each try, so the two sides of a deadlock do not meet again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** tries));
    }
  }
}
