/**
 * A core's own delivery engine: started on demand (the engine, undici and DNS load only then) with
 * the core's store, keyring and webhook settings, at most one at a time, and stopped once the
 * attempts in flight are recorded.
 */

import type { Keyring } from '../../keyring/keyring.js';
import type { IdGenerator } from '../../runtime/ids.js';
import type { CoreLogger } from '../../runtime/logger.js';
import type { LatchkeyStore } from '../../store/types.js';
import type { WebhookOptions } from '../config.js';
import type { DeliveryEngine, DeliveryEngineOptions } from './engine.js';

/** Options of `core.startDeliveries`: the engine's tuning (the rest comes from the core). */
export type StartDeliveriesOptions = Pick<
  DeliveryEngineOptions,
  'batchSize' | 'concurrency' | 'webhookShare' | 'pollIntervalMs' | 'leaseMs' | 'transport' | 'random'
>;

/** What the engine takes from its core. */
export interface EngineControlDeps {
  store: LatchkeyStore;
  keyring: Keyring | undefined;
  /** The core option `webhooks`, as the host gave it. */
  webhooks: WebhookOptions | undefined;
  now: () => number;
  ids: IdGenerator;
  logger: CoreLogger;
  /** The core's keyring check: no delivery opens a secret before it passed. */
  verifyKeyring: () => Promise<void>;
}

/** Starts and stops a core's one delivery engine. */
export interface EngineControl {
  /** Starts the engine (or answers the running one). */
  start(options?: StartDeliveriesOptions): Promise<DeliveryEngine>;
  /** Stops the running engine, if any, once its attempts in flight are recorded. */
  stop(): Promise<void>;
  /**
   * Whether this process delivers: `running`; `off` (never started, or stopped by `stop()`); or
   * `stopped`, started but no longer running (its loop gave up: the keyring cannot open the store).
   */
  state(): 'running' | 'off' | 'stopped';
}

/** The start and stop of a core's delivery engine. */
export function createEngineControl(deps: EngineControlDeps): EngineControl {
  let engine: DeliveryEngine | undefined;
  return {
    async start(options = {}) {
      if (engine) return engine;
      const keyring = deps.keyring;
      if (!keyring) throw new TypeError('startDeliveries needs the core option keyring');
      await deps.verifyKeyring();
      const { createDeliveryEngine } = await import('./engine.js');
      const { webhooks } = deps;
      engine ??= createDeliveryEngine({
        store: deps.store,
        keyring,
        ...(webhooks ? { webhooks } : {}),
        ...(webhooks?.transport ? { transport: webhooks.transport } : {}),
        now: deps.now,
        ids: deps.ids,
        logger: deps.logger,
        ...options,
      });
      engine.start();
      return engine;
    },
    async stop() {
      await engine?.stop();
      engine = undefined;
    },
    state: () => (engine === undefined ? 'off' : engine.running ? 'running' : 'stopped'),
  };
}
