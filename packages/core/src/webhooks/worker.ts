/**
 * The delivery engine: claims due deliveries from the store's outbox in batches (leased, so several
 * engines in several processes share the work and a crashed one's claims are taken over when its
 * lease ends), attempts them with bounded concurrency, and records each outcome. It sleeps when
 * there is nothing due and wakes on `wake()` (wired to the store's notifications where it has them)
 * or at the next poll. `stop()` stops claiming and waits for the attempts in flight.
 *
 * Runs inside the host app (`startDeliveries()`) or as a process of its own; clock, randomness,
 * timers and the transport are injected, so whole retry schedules run in tests without sleeping.
 */
import type { CoreLogger } from '../core.js';
import { describeError } from '../describe-error.js';
import { type IdGenerator, randomId } from '../ids.js';
import { type Keyring, missingKeyId } from '../keyring.js';
import type { ClaimedDelivery } from '../store/ports/deliveries.js';
import type { LatchkeyStore } from '../store/ports/store.js';
import { type AttemptServices, attemptDelivery } from './attempt.js';
import { type KeyringOption, toKeyring, type WebhookOptions, webhookSettings } from './config.js';
import { engineKeyringOpens, missingKeyLogger } from './engine-keyring.js';
import { floorTo, HOUR_MS } from './metrics-rollup.js';
import { createUndiciTransport, type Transport } from './sender.js';

/** Options of {@link createDeliveryEngine}. */
export interface DeliveryEngineOptions {
  store: LatchkeyStore;
  /** The keyring the signing secrets were sealed with (the core's `keyring`). */
  keyring: Keyring | KeyringOption;
  /** Resolver, allowlist, retry policy and timeout (the core's `webhooks`). */
  webhooks?: WebhookOptions;
  /** Sends deliveries. Default: undici with keep-alive and the SSRF guard. */
  transport?: Transport;
  /** Deliveries claimed at once, at most (`runOnce` claims this many). Default 32. */
  batchSize?: number;
  /** Attempts in flight at once. Default 16. */
  concurrency?: number;
  /** How often an idle engine looks for due deliveries, in ms. Default 1000. */
  pollIntervalMs?: number;
  /** When the store cannot watch for queued deliveries at start, how soon to try again, in ms. Default 5000. */
  watchRetryMs?: number;
  /** How long a claim is kept from other engines, in ms. Default the attempt timeout + 30 s. */
  leaseMs?: number;
  /** Attempts are kept this many days, then deleted in batches. Default 30. */
  attemptRetentionDays?: number;
  /** Metrics rollups are kept this many days (at least 31, the longest window plus one). Default 90. */
  rollupRetentionDays?: number;
  /** How often old attempts and rollups are deleted, in ms. Default one hour. */
  pruneIntervalMs?: number;
  now?: () => number;
  random?: () => number;
  ids?: IdGenerator;
  logger?: CoreLogger;
}

/** Attempts deleted per statement when pruning. */
export const PRUNE_BATCH = 5_000;

/** A running (or stopped) delivery engine. */
export interface DeliveryEngine {
  /** Starts the loop; does nothing when it already runs. */
  start(): void;
  /** Stops claiming and resolves once the attempts in flight are recorded. */
  stop(): Promise<void>;
  /** Something was queued: look for due deliveries now rather than at the next poll. */
  wake(): void;
  /** One round: claims due deliveries, attempts them and records the outcomes; returns how many. */
  runOnce(): Promise<number>;
  /** Deletes attempts and rollups past their retention, in batches; returns how many of each. */
  prune(): Promise<{ attempts: number; rollups: number }>;
  /**
   * Deliveries attempted since the engine was made, by outcome; `deferred`: not sent because the
   * signing secret is sealed with a key this keyring lacks (left leased, taken up again after).
   */
  readonly counts: Readonly<
    Record<'delivered' | 'retry' | 'dead_letter' | 'lost' | 'failed' | 'deferred', number>
  >;
}

export function createDeliveryEngine(options: DeliveryEngineOptions): DeliveryEngine {
  const keyring = toKeyring(options.keyring);
  if (!keyring)
    throw new TypeError('createDeliveryEngine needs the keyring the signing secrets were sealed with');
  const settings = webhookSettings(options.webhooks);
  const batchSize = options.batchSize ?? 32;
  const concurrency = options.concurrency ?? 16;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const watchRetryMs = options.watchRetryMs ?? 5_000;
  const leaseMs = options.leaseMs ?? settings.timeoutMs + 30_000;
  const attemptRetentionDays = options.attemptRetentionDays ?? 30;
  const rollupRetentionDays = options.rollupRetentionDays ?? 90;
  if (!(attemptRetentionDays > 0)) throw new RangeError('attemptRetentionDays must be positive');
  if (!(rollupRetentionDays >= 31))
    throw new RangeError('rollupRetentionDays must be at least 31 (the 30d window)');
  const pruneIntervalMs = options.pruneIntervalMs ?? 3_600_000;
  let lastPrune = Number.NEGATIVE_INFINITY;
  const now = options.now ?? Date.now;
  const logger: CoreLogger = options.logger ?? {
    error: (message, meta) => console.error(`[latchkey] ${message}`, meta ?? ''),
  };
  const ownTransport = options.transport === undefined;
  const transport =
    options.transport ??
    createUndiciTransport({ resolve: settings.resolve, allowHosts: settings.allowHosts });
  const services: AttemptServices = {
    store: options.store,
    keyring,
    transport,
    retry: settings.retry,
    timeoutMs: settings.timeoutMs,
    now,
    random: options.random ?? Math.random,
    ids: options.ids ?? randomId,
    secrets: new Map(),
  };
  const counts = { delivered: 0, retry: 0, dead_letter: 0, lost: 0, failed: 0, deferred: 0 };
  const logMissingKey = missingKeyLogger(logger);

  let running = false;
  let stopped = false;
  let loop: Promise<void> | null = null;
  let unwatch: Promise<(() => Promise<void>) | undefined> | undefined;
  let watchRetry: ReturnType<typeof setTimeout> | null = null;
  let sleeping: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | null = null;
  let woken = false;

  async function attempt(claimed: ClaimedDelivery): Promise<void> {
    try {
      const outcome = await attemptDelivery(services, claimed);
      if (outcome !== 'test') counts[outcome]++;
    } catch (error) {
      if (missingKeyId(error) !== null) {
        // Not an attempt: its lease runs out and it is claimed again, by an engine with the key.
        counts.deferred++;
        logMissingKey(error);
        return;
      }
      // The store failed while recording: the lease runs out and the delivery is tried again.
      counts.failed++;
      logger.error('a delivery attempt could not be recorded', {
        delivery: claimed.delivery.id,
        error: describeError(error),
      });
    }
  }

  async function runOnce(): Promise<number> {
    const at = now();
    const claimed = await options.store.deliveries.claim({
      now: new Date(at).toISOString(),
      limit: batchSize,
      leaseUntil: new Date(at + leaseMs).toISOString(),
    });
    // Bounded concurrency: `concurrency` workers take the batch's deliveries in order.
    let next = 0;
    const workers = Array.from({ length: Math.min(concurrency, claimed.length) }, async () => {
      while (next < claimed.length) await attempt(claimed[next++]!);
    });
    await Promise.all(workers);
    return claimed.length;
  }

  function sleep(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      sleeping = {
        timer: setTimeout(() => {
          sleeping = null;
          resolve();
        }, ms),
        resolve,
      };
    });
  }

  async function prune(): Promise<{ attempts: number; rollups: number }> {
    const day = 86_400_000;
    const attemptsBefore = new Date(now() - attemptRetentionDays * day).toISOString();
    let attempts = 0;
    for (;;) {
      const deleted = await options.store.deliveries.pruneAttempts(attemptsBefore, PRUNE_BATCH);
      attempts += deleted;
      if (deleted < PRUNE_BATCH || stopped) break;
    }
    // On an hour boundary: the running totals kept at the cutoff are totals before an hour.
    const rollups = await options.store.deliveries.pruneRollups(
      new Date(floorTo(now() - rollupRetentionDays * day, HOUR_MS)).toISOString(),
    );
    return { attempts, rollups };
  }

  // The running loop keeps up to `concurrency` attempts in flight: it claims again as soon as half
  // the slots are free, rather than waiting for a whole batch to finish behind its slowest attempt.
  const inFlight = new Set<Promise<void>>();
  let slotFreed: (() => void) | null = null;

  function launch(claimed: ClaimedDelivery): void {
    const running = attempt(claimed).finally(() => {
      inFlight.delete(running);
      slotFreed?.();
    });
    inFlight.add(running);
  }

  async function claimInto(free: number): Promise<number> {
    const at = now();
    const claimed = await options.store.deliveries.claim({
      now: new Date(at).toISOString(),
      limit: Math.min(free, batchSize),
      leaseUntil: new Date(at + leaseMs).toISOString(),
    });
    for (const one of claimed) launch(one);
    return claimed.length;
  }

  /** Resolves when an attempt in flight finishes (a slot is free). */
  const aSlotFrees = () =>
    new Promise<void>((resolve) => {
      slotFreed = () => {
        slotFreed = null;
        resolve();
      };
    });

  async function run(): Promise<void> {
    const opens = await engineKeyringOpens(options.store, services.keyring, logger, {
      running: () => running,
      wait: () => sleep(pollIntervalMs),
    });
    if (!opens) {
      running = false;
      return;
    }
    while (running) {
      if (now() - lastPrune >= pruneIntervalMs) {
        lastPrune = now();
        await prune().catch((error: unknown) =>
          logger.error('pruning old attempts failed', { error: describeError(error) }),
        );
      }
      const free = concurrency - inFlight.size;
      let asked = 0;
      let got = 0;
      if (free >= Math.ceil(concurrency / 2) || inFlight.size === 0) {
        asked = Math.min(free, batchSize);
        try {
          got = await claimInto(free);
        } catch (error) {
          logger.error('claiming due deliveries failed', { error: describeError(error) });
        }
      }
      if (!running) break;
      if (asked > 0 && got < asked) {
        // Nothing more is due: wait for a wake-up or the poll (attempts in flight go on meanwhile).
        await sleep(pollIntervalMs);
      } else if (inFlight.size > 0) {
        // Busy: claim again once enough slots are free.
        await aSlotFrees();
      }
    }
    await Promise.all(inFlight);
  }

  // Woken by the store when deliveries are queued (any process, on SQL); the poll is the fallback.
  // A store that cannot watch yet (its database away at start) is asked again until it can.
  function watch(first: boolean): void {
    const watching = options.store.watchDeliveries?.(() => engine.wake());
    if (!watching) return;
    unwatch = watching.catch((error: unknown) => {
      if (first) {
        logger.error('cannot watch for queued deliveries yet; polling, and trying again', {
          error: describeError(error),
        });
      }
      if (running) {
        watchRetry = setTimeout(() => {
          watchRetry = null;
          if (running) watch(false);
        }, watchRetryMs);
        watchRetry.unref?.();
      }
      return undefined;
    });
  }

  const engine: DeliveryEngine = {
    start() {
      if (stopped) throw new Error('a stopped delivery engine does not restart; create a new one');
      if (running) return;
      running = true;
      watch(true);
      loop = run();
    },
    async stop() {
      running = false;
      stopped = true;
      if (watchRetry) clearTimeout(watchRetry);
      watchRetry = null;
      const stopWatching = await unwatch;
      await stopWatching?.();
      if (sleeping) {
        clearTimeout(sleeping.timer);
        sleeping.resolve();
        sleeping = null;
      }
      await loop;
      loop = null;
      if (ownTransport) await transport.close();
    },
    wake() {
      if (sleeping) {
        clearTimeout(sleeping.timer);
        const { resolve } = sleeping;
        sleeping = null;
        resolve();
      } else {
        woken = true;
      }
    },
    runOnce,
    prune,
    counts,
  };
  return engine;
}
