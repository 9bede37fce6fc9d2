/**
 * Woken by the store when deliveries are queued (any process, on SQL); the poll is the fallback.
 * A store that cannot watch yet (its database away at start) is asked again until it can.
 */
import { describeError } from '../../errors/describe-error.js';
import type { EngineSettings } from './options.js';

/** Watching the store for queued deliveries, for as long as the engine runs. */
export interface DeliveryWatch {
  /** Starts watching (nothing when the store cannot watch at all). */
  start(): void;
  /** Stops retrying and stops watching. */
  stop(): Promise<void>;
}

/** A watch that calls `onQueued` on each notification while `running()` holds. */
export function createDeliveryWatch(
  settings: Pick<EngineSettings, 'store' | 'logger' | 'watchRetryMs'>,
  running: () => boolean,
  onQueued: () => void,
): DeliveryWatch {
  let unwatch: Promise<(() => Promise<void>) | undefined> | undefined;
  let retry: ReturnType<typeof setTimeout> | null = null;

  function watch(first: boolean): void {
    const watching = settings.store.watchDeliveries?.(onQueued);
    if (!watching) return;
    unwatch = watching.catch((error: unknown) => {
      if (first) {
        settings.logger.error('cannot watch for queued deliveries yet; polling, and trying again', {
          error: describeError(error),
        });
      }
      if (running()) {
        retry = setTimeout(() => {
          retry = null;
          if (running()) watch(false);
        }, settings.watchRetryMs);
        retry.unref?.();
      }
      return undefined;
    });
  }

  return {
    start: () => watch(true),
    async stop() {
      if (retry) clearTimeout(retry);
      retry = null;
      const stopWatching = await unwatch;
      await stopWatching?.();
    },
  };
}
