/**
 * The organizations a restore is being applied to in steps, in this process (see
 * `backup/restore/steps.ts`): their content is half written until the restore ends, so every request
 * acting on one answers 503 meanwhile. Kept per store object, the one the core's services hold.
 */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { LatchkeyStore } from '../store/types.js';

const applying = new WeakMap<object, Set<string>>();

/** The set for `store`. */
export function restoringIn(store: LatchkeyStore): Set<string> {
  const key = store as object;
  let set = applying.get(key);
  if (!set) {
    set = new Set();
    applying.set(key, set);
  }
  return set;
}

/** A 503 while the organization's restore is being applied (its content is not whole yet). */
export function checkNotRestoring(store: LatchkeyStore, organizationId: string): void {
  if (!applying.get(store as object)?.has(organizationId)) return;
  throw new LatchkeyError(
    'service_unavailable',
    'A restore is being applied to this organization; try again when it ends.',
    { retryAfterSeconds: 5 },
  );
}
