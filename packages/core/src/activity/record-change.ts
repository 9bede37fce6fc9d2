/** A state change and the activity event that records it, made in one unit of work. */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ActivityDraft } from '../model/model.js';
import type { CreateResult } from '../store/ports/common.js';
import type { LatchkeyStore, StoreTransaction } from '../store/types.js';

/**
 * Makes `change` through a transaction and appends the event `record` makes of what it answered, in
 * the same transaction: the log never misses a change nor records one that did not happen. A throw
 * from either undoes both.
 */
export function recordChange<T>(
  store: LatchkeyStore,
  organizationId: string,
  change: (tx: StoreTransaction) => Promise<T>,
  record: (changed: T) => ActivityDraft,
): Promise<T> {
  return store.transaction(async (tx) => {
    const changed = await change(tx);
    await tx.activity.append(organizationId, record(changed));
    return changed;
  });
}

/**
 * Creates a record under a name unique in its scope, with the event `record` makes, as
 * `recordChange` does; a name already taken is a 409 `already_exists` saying `taken`, and nothing
 * is written.
 */
export function recordCreate(
  store: LatchkeyStore,
  organizationId: string,
  create: (tx: StoreTransaction) => Promise<CreateResult>,
  taken: string,
  record: () => ActivityDraft,
): Promise<void> {
  return recordChange(
    store,
    organizationId,
    async (tx) => {
      if ((await create(tx)) === 'exists') throw new LatchkeyError('already_exists', taken);
    },
    record,
  );
}
