/**
 * The delivery engine: claims due deliveries from the store's outbox in batches (leased, so several
 * engines in several processes share the work and a crashed one's claims are taken over when its
 * lease ends), attempts them with bounded concurrency, and records the outcomes many to a
 * transaction (`engine/flush.ts`). It sleeps when
 * there is nothing due and wakes on `wake()` (wired to the store's notifications where it has them)
 * or at the next poll. `stop()` stops claiming and waits for the attempts in flight.
 *
 * Runs inside the host app (`startDeliveries()`) or as a process of its own; clock, randomness,
 * timers and the transport are injected, so whole retry schedules run in tests without sleeping.
 */

import { loadTelemetry } from '../../telemetry/tracing.js';
import { createAttemptRunner, type EngineCounts } from './attempts.js';
import { claimDue } from './claim.js';
import { engineKeyringOpens } from './keyring.js';
import { runLoop } from './loop.js';
import { type DeliveryEngineOptions, engineSettings } from './options.js';
import { createPruner } from './prune.js';
import { createReplayPacer } from './replays.js';
import { WakeableSleep } from './sleep.js';
import { attemptAll, InFlight } from './slots.js';
import { createDeliveryWatch } from './watch.js';

export type { DeliveryEngineOptions } from './options.js';

/** A running (or stopped) delivery engine. */
export interface DeliveryEngine {
  /** Starts the loop; does nothing when it already runs. */
  start(): void;
  /** Stops claiming and resolves once the attempts in flight are recorded. */
  stop(): Promise<void>;
  /** Something was queued: look for due deliveries now rather than at the next poll. */
  wake(): void;
  /**
   * One round: moves replays on by a batch, claims due deliveries, attempts them and records the
   * outcomes; returns how many it attempted.
   */
  runOnce(): Promise<number>;
  /** Deletes attempts and rollups past their retention, in batches; returns how many of each. */
  prune(): Promise<{ attempts: number; rollups: number }>;
  /**
   * Deliveries attempted since the engine was made, by outcome; `deferred`: not sent because the
   * signing secret is sealed with a key this keyring lacks (left leased, taken up again after).
   */
  readonly counts: Readonly<EngineCounts>;
  /** True from `start()` until `stop()`, or until the loop gave up (a keyring that cannot open the store). */
  readonly running: boolean;
}

/** A delivery engine over the store's outbox; `start()` runs it, `runOnce()` runs one round. */
export function createDeliveryEngine(options: DeliveryEngineOptions): DeliveryEngine {
  const settings = engineSettings(options);
  const { services } = settings;
  // Each attempt is traced: load the tracing API now, not while the first attempts wait for it.
  void loadTelemetry();
  const state = { running: false, stopped: false };
  const running = () => state.running;
  const runner = createAttemptRunner(settings);
  const pruner = createPruner(settings, () => state.stopped);
  const replays = createReplayPacer(settings);
  const sleeper = new WakeableSleep();
  const slots = new InFlight(runner.attempt, {
    concurrency: settings.concurrency,
    webhookShare: settings.webhookShare,
    now: settings.now,
    // An attempt takes at most the timeout: one started later could end outside its lease.
    leaseMarginMs: Math.min(services.timeoutMs + 1_000, settings.leaseMs / 2),
  });
  const watch = createDeliveryWatch(settings, running, () => sleeper.wake());
  let loop: Promise<void> | null = null;

  async function run(): Promise<void> {
    const sleep = (ms: number, until?: Promise<void>) => sleeper.sleep(ms, until);
    const opens = await engineKeyringOpens(settings.store, services.keyring, settings.logger, {
      running,
      wait: () => sleep(settings.pollIntervalMs),
    });
    if (!opens) {
      state.running = false;
      return;
    }
    await runLoop({
      settings,
      slots,
      running,
      sleep,
      pruneIfDue: pruner.pruneIfDue,
      replayIfDue: replays.advanceIfDue,
    });
    await runner.drain();
  }

  async function runOnce(): Promise<number> {
    // The next batch of each replay whose webhook has nothing due, then whatever is due.
    await replays.advance();
    const claimed = await claimDue(settings, settings.batchSize);
    await attemptAll(claimed, settings.concurrency, runner.attempt);
    await runner.drain();
    return claimed.length;
  }

  return {
    start() {
      if (state.stopped) throw new Error('a stopped delivery engine does not restart; create a new one');
      if (state.running) return;
      state.running = true;
      watch.start();
      loop = run();
    },
    async stop() {
      state.running = false;
      state.stopped = true;
      await watch.stop();
      sleeper.cancel();
      await loop;
      loop = null;
      if (settings.ownTransport) await services.transport.close();
    },
    wake: () => sleeper.wake(),
    runOnce,
    prune: pruner.prune,
    counts: runner.counts,
    get running() {
      return state.running;
    },
  };
}
