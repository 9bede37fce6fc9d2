/**
 * Pacing replays of the log (`replay_since`, `recover`): the engine moves every replay under way on
 * by one batch (`webhooks.replay.batch`) at most once per `replayIntervalMs`, and the store queues a
 * webhook's next batch only when nothing of it is due, so a replay of a long history never floods
 * the queue and live deliveries queued meanwhile are sent before the next batch.
 */
import { describeError } from '../../errors/describe-error.js';
import type { EngineSettings } from './options.js';

type ReplaySettings = Pick<EngineSettings, 'store' | 'now' | 'logger' | 'replayBatch' | 'replayIntervalMs'>;

/** Moves replays on, and knows when it is due again. */
export interface ReplayPacer {
  /** Moves every replay under way on by one batch; how many deliveries it queued. */
  advance(): Promise<number>;
  /** {@link advance} when `replayIntervalMs` has passed since the last time, logging a failure. */
  advanceIfDue(): Promise<number>;
}

/** A pacer over the settings' store. */
export function createReplayPacer(settings: ReplaySettings): ReplayPacer {
  let last = Number.NEGATIVE_INFINITY;
  const advance = () =>
    settings.store.deliveries.advanceReplays(new Date(settings.now()).toISOString(), settings.replayBatch);
  return {
    advance,
    async advanceIfDue() {
      if (settings.now() - last < settings.replayIntervalMs) return 0;
      last = settings.now();
      return advance().catch((error: unknown) => {
        settings.logger.error('advancing replays failed', { error: describeError(error) });
        return 0;
      });
    },
  };
}
