/**
 * The engine's side of an attempt: send and decide, hand the outcome to the batches that record it
 * (`engine/flush.ts`), and count it. A failure is never thrown at the loop: a secret sealed with a
 * missing key defers the delivery, and a flush that fails leaves its deliveries to be claimed again
 * when their leases run out.
 */
import { describeError } from '../../errors/describe-error.js';
import { missingKeyId } from '../../keyring/keyring.js';
import type { ClaimedDelivery } from '../../store/ports/deliveries.js';
import { decideAttempt } from '../attempt.js';
import { recordOutcomes } from '../record-outcome.js';
import { OutcomeBatches, type Recorded } from './flush.js';
import { missingKeyLogger } from './keyring.js';
import type { EngineSettings } from './options.js';

/** Deliveries attempted by one engine, by outcome (see `DeliveryEngine.counts`). */
export type EngineCounts = Record<
  'delivered' | 'retry' | 'dead_letter' | 'lost' | 'failed' | 'deferred',
  number
>;

/** Attempts claimed deliveries and keeps the counts. */
export interface AttemptRunner {
  readonly counts: EngineCounts;
  /**
   * Attempts one claimed delivery; resolves once it is decided and queued to be recorded (or, when
   * more than `4 × flushSize` outcomes wait, once it is recorded); never rejects.
   */
  attempt(claimed: ClaimedDelivery): Promise<void>;
  /** Records every outcome waiting; resolves once none waits. */
  drain(): Promise<void>;
}

/** An attempt runner over the engine's services, recording per `flushSize` and `flushDelayMs`. */
export function createAttemptRunner(
  settings: Pick<EngineSettings, 'services' | 'logger' | 'flushSize' | 'flushDelayMs'>,
): AttemptRunner {
  const { services, logger } = settings;
  const counts: EngineCounts = { delivered: 0, retry: 0, dead_letter: 0, lost: 0, failed: 0, deferred: 0 };
  const logMissingKey = missingKeyLogger(logger);
  const batches = new OutcomeBatches(
    (batch) => recordOutcomes(services, batch),
    settings,
    (error, n) =>
      // The leases run out and these deliveries are tried again.
      logger.error('delivery attempts could not be recorded', { attempts: n, error: describeError(error) }),
  );
  const count = (recorded: Recorded) => {
    if (recorded !== 'test') counts[recorded]++;
  };
  let sending = 0;
  async function attempt(claimed: ClaimedDelivery): Promise<void> {
    sending++;
    let decided: Awaited<ReturnType<typeof decideAttempt>>;
    try {
      decided = await decideAttempt(services, claimed);
    } catch (error) {
      if (missingKeyId(error) !== null) {
        // Not an attempt: its lease runs out and it is claimed again, by an engine with the key.
        counts.deferred++;
        logMissingKey(error);
      } else {
        counts.failed++;
        logger.error('a delivery attempt failed', {
          delivery: claimed.delivery.id,
          error: describeError(error),
        });
      }
      return;
    } finally {
      sending--;
    }
    const recorded = batches.add(decided, sending === 0).then(count);
    if (batches.size > 4 * settings.flushSize) await recorded;
  }
  return { counts, attempt, drain: () => batches.drain() };
}
