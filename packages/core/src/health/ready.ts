/**
 * `core.ready()`: whether this instance can serve, check by check, with nothing secret in it. Each
 * check has a `status` of `ok` or `fail`; the report is `ready` only when every check is `ok`.
 */
import type { KeyringCheck } from '../keyring/check.js';

/** The report of `core.ready()`. */
export interface ReadyReport {
  status: 'ready' | 'unavailable';
  checks: {
    /** The keyring opens every key id the store's data was sealed with. */
    keyring: KeyringCheck;
  };
}

/** The report of a set of checks. */
export function readyReport(checks: ReadyReport['checks']): ReadyReport {
  const ok = Object.values(checks).every((check) => check.status === 'ok');
  return { status: ok ? 'ready' : 'unavailable', checks };
}
