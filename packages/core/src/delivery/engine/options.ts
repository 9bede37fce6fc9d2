/**
 * The delivery engine's options and what they come to: the defaults filled in, the retention
 * limits checked, and the services one attempt runs with (the transport made here unless given).
 */

import type { Keyring } from '../../keyring/keyring.js';
import type { WebhookLimits } from '../../model/webhook-limits.js';
import { type IdGenerator, randomId } from '../../runtime/ids.js';
import { type CoreLogger, consoleLogger } from '../../runtime/logger.js';
import type { LatchkeyStore } from '../../store/ports/store.js';
import type { AttemptServices } from '../attempt.js';
import { type KeyringOption, toKeyring, type WebhookOptions, webhookSettings } from '../config.js';
import { createUndiciTransport, type Transport } from '../sending/sender.js';

/** Options of {@link createDeliveryEngine}. */
export interface DeliveryEngineOptions {
  store: LatchkeyStore;
  /** The keyring the signing secrets were sealed with (the core's `keyring`). */
  keyring: Keyring | KeyringOption;
  /** Resolver, allowlist, retry policy and timeout (the core's `webhooks`). */
  webhooks?: WebhookOptions;
  /** Sends deliveries. Default: undici with keep-alive and the SSRF guard. */
  transport?: Transport;
  /**
   * Deliveries claimed at once, at most (`runOnce` claims this many); the running engine claims
   * another batch whenever fewer than this many wait for a slot. Default four times `concurrency`
   * (64).
   */
  batchSize?: number;
  /** Attempts in flight at once. Default 16. */
  concurrency?: number;
  /**
   * Outcomes are recorded many to a transaction: a flush starts when nothing is still sending, when
   * this many outcomes wait, or `flushDelayMs` after the first of them, whichever comes first.
   * Default 64.
   */
  flushSize?: number;
  /** How long an outcome may wait for others to be recorded with, in ms. Default 10. */
  flushDelayMs?: number;
  /**
   * Attempts of one webhook this engine runs at once, at most: the rest of its slots stay for the
   * other webhooks, so one slow or hanging receiver never holds them all. Default three quarters
   * of `concurrency`, leaving at least one slot (1 when `concurrency` is 1).
   */
  webhookShare?: number;
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
  /**
   * How often replays under way are moved on by a batch (`webhooks.replay.batch`), in ms, at most.
   * Default `pollIntervalMs` (1 s): with the default batch, 100 events a second per webhook at most.
   */
  replayIntervalMs?: number;
  now?: () => number;
  random?: () => number;
  ids?: IdGenerator;
  logger?: CoreLogger;
}

/** The engine's options with their defaults, checked. */
export interface EngineSettings {
  store: LatchkeyStore;
  batchSize: number;
  concurrency: number;
  flushSize: number;
  flushDelayMs: number;
  webhookShare: number;
  /** The per-webhook limits held across workers (`webhooks.limits`). */
  limits: WebhookLimits | undefined;
  pollIntervalMs: number;
  watchRetryMs: number;
  leaseMs: number;
  attemptRetentionDays: number;
  rollupRetentionDays: number;
  pruneIntervalMs: number;
  /** Events of a replay queued per advance (`webhooks.replay.batch`). */
  replayBatch: number;
  replayIntervalMs: number;
  now: () => number;
  logger: CoreLogger;
  /** What each attempt runs with. */
  services: AttemptServices;
  /** True when the engine made its transport, and so closes it when it stops. */
  ownTransport: boolean;
}

/** Fills in the defaults and checks them; throws before anything is opened when they are wrong. */
export function engineSettings(options: DeliveryEngineOptions): EngineSettings {
  const keyring = toKeyring(options.keyring);
  if (!keyring)
    throw new TypeError('createDeliveryEngine needs the keyring the signing secrets were sealed with');
  const webhooks = webhookSettings(options.webhooks);
  const attemptRetentionDays = options.attemptRetentionDays ?? 30;
  const rollupRetentionDays = options.rollupRetentionDays ?? 90;
  if (!(attemptRetentionDays > 0)) throw new RangeError('attemptRetentionDays must be positive');
  if (!(rollupRetentionDays >= 31))
    throw new RangeError('rollupRetentionDays must be at least 31 (the 30d window)');
  const now = options.now ?? Date.now;
  const transport =
    options.transport ??
    createUndiciTransport({ resolve: webhooks.resolve, allowHosts: webhooks.allowHosts });
  const concurrency = options.concurrency ?? 16;
  const webhookShare = options.webhookShare ?? defaultShare(concurrency);
  if (!(Number.isInteger(webhookShare) && webhookShare >= 1))
    throw new RangeError('webhookShare must be a whole number of at least 1');
  return {
    store: options.store,
    batchSize: positiveWhole('batchSize', options.batchSize ?? 4 * concurrency),
    concurrency,
    flushSize: positiveWhole('flushSize', options.flushSize ?? 64),
    flushDelayMs: options.flushDelayMs ?? 10,
    webhookShare,
    limits: webhooks.limits,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    watchRetryMs: options.watchRetryMs ?? 5_000,
    leaseMs: options.leaseMs ?? webhooks.timeoutMs + 30_000,
    attemptRetentionDays,
    rollupRetentionDays,
    pruneIntervalMs: options.pruneIntervalMs ?? 3_600_000,
    replayBatch: webhooks.replay.batch,
    replayIntervalMs: options.replayIntervalMs ?? options.pollIntervalMs ?? 1_000,
    now,
    logger: options.logger ?? consoleLogger,
    services: {
      store: options.store,
      keyring,
      transport,
      retry: webhooks.retry,
      timeoutMs: webhooks.timeoutMs,
      now,
      random: options.random ?? Math.random,
      ids: options.ids ?? randomId,
      secrets: new Map(),
      trees: new Map(),
    },
    ownTransport: options.transport === undefined,
  };
}

/** Three quarters of the slots, leaving at least one to the other webhooks when there are two. */
function defaultShare(concurrency: number): number {
  return Math.max(1, Math.min(concurrency - 1, Math.ceil(concurrency * 0.75)));
}

/** `value`, checked to be a whole number of at least 1. */
function positiveWhole(name: string, value: number): number {
  if (!(Number.isInteger(value) && value >= 1))
    throw new RangeError(`${name} must be a whole number of at least 1`);
  return value;
}
