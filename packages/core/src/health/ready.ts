/**
 * `core.ready()`: whether this instance can serve, check by check, with nothing secret in it. Each
 * check has a `status` of `ok` or `fail`; the report is `ready` only when every check is `ok`. Every
 * check that reaches the store is bounded by a timeout, so a probe answers even while the database
 * hangs.
 */
import type { KeyringCheck } from '../keyring/check.js';
import type { LatchkeyStore } from '../store/types.js';

/** The store answered (or not) within the timeout. */
export interface StoreCheck {
  status: 'ok' | 'fail';
  /** How long the store took to answer, in milliseconds. */
  latency_ms?: number;
  /** Why it failed: `timeout` or `unavailable` (the error itself may name hosts, so it is logged, not shown). */
  reason?: 'timeout' | 'unavailable';
}

/** The store's schema is the one this code expects (a store without a schema is always `ok`). */
export interface MigrationsCheck {
  status: 'ok' | 'fail';
  /** The newest migration applied to the store. */
  version?: number;
  /** The newest migration this code knows. */
  expected?: number;
  message?: string;
}

/** The delivery engine runs where this process started it. */
export interface DeliveriesCheck {
  status: 'ok' | 'fail';
  /**
   * `off`: this process does not deliver (`core.startDeliveries` was not called, or was stopped);
   * `stopped` (a failure): it was started and its loop has given up.
   */
  engine: 'running' | 'off' | 'stopped';
}

/** The report of `core.ready()`. */
export interface ReadyReport {
  status: 'ready' | 'unavailable';
  checks: {
    store: StoreCheck;
    migrations: MigrationsCheck;
    /** The keyring opens every key id the store's data was sealed with. */
    keyring: KeyringCheck;
    deliveries: DeliveriesCheck;
  };
}

/** Options of `core.ready()`. */
export interface ReadyOptions {
  /** How long each check that reaches the store may take, in milliseconds (default 1000). */
  timeoutMs?: number;
}

/** What the readiness checks look at. */
export interface ReadyDeps {
  store: LatchkeyStore;
  keyring: () => Promise<KeyringCheck>;
  engine: () => DeliveriesCheck['engine'];
  now: () => number;
}

const TIMED_OUT = Symbol('timed out');

/** `work`, or {@link TIMED_OUT} once `ms` have passed; a late rejection is swallowed. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  work.catch(() => {});
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function checkStore(deps: ReadyDeps, ms: number): Promise<[StoreCheck, MigrationsCheck]> {
  const began = deps.now();
  try {
    const status = await within(deps.store.status ? deps.store.status() : Promise.resolve(null), ms);
    if (status === TIMED_OUT) {
      return [
        { status: 'fail', reason: 'timeout' },
        { status: 'fail', message: 'the store did not answer' },
      ];
    }
    const store: StoreCheck = { status: 'ok', latency_ms: Math.max(0, deps.now() - began) };
    if (status === null) return [store, { status: 'ok' }];
    const { version, expected } = status.migrations;
    if (version === expected) return [store, { status: 'ok', version, expected }];
    const message =
      version < expected
        ? `the schema is at migration ${version}, this code expects ${expected}: restart an instance to migrate`
        : `the schema is at migration ${version}, newer than this code (${expected}): upgrade`;
    return [store, { status: 'fail', version, expected, message }];
  } catch {
    return [
      { status: 'fail', reason: 'unavailable' },
      { status: 'fail', message: 'the store did not answer' },
    ];
  }
}

const KEYRING_TIMED_OUT: KeyringCheck = {
  status: 'fail',
  key_ids: [],
  missing: [],
  mismatched: [],
  message: 'keyring: cannot be checked: the store did not answer',
};

/** Runs every check (the store's and the keyring's at once) and reports. */
export async function checkReady(deps: ReadyDeps, options: ReadyOptions = {}): Promise<ReadyReport> {
  const ms = options.timeoutMs ?? 1000;
  const [[store, migrations], keyring] = await Promise.all([
    checkStore(deps, ms),
    within(deps.keyring(), ms).then((check) => (check === TIMED_OUT ? KEYRING_TIMED_OUT : check)),
  ]);
  const engine = deps.engine();
  const deliveries: DeliveriesCheck = { status: engine === 'stopped' ? 'fail' : 'ok', engine };
  return readyReport({ store, migrations, keyring, deliveries });
}

/** The report of a set of checks. */
function readyReport(checks: ReadyReport['checks']): ReadyReport {
  const ok = Object.values(checks).every((check) => check.status === 'ok');
  return { status: ok ? 'ready' : 'unavailable', checks };
}
