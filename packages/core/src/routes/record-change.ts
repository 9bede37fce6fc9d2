/** A state change and the activity event that records it, made in one unit of work. */
import type { RouteContext } from '../http/router.js';
import type { ActivityDraft } from '../model/model.js';
import type { StoreTransaction } from '../store/types.js';

/**
 * Makes `change` through a transaction and appends the event `record` makes of what it answered, in
 * the same transaction: the log never misses a change nor records one that did not happen. A throw
 * from either undoes both.
 */
export function recordChange<T>(
  ctx: Pick<RouteContext, 'services' | 'organization'>,
  change: (tx: StoreTransaction) => Promise<T>,
  record: (changed: T) => ActivityDraft,
): Promise<T> {
  return ctx.services.store.transaction(async (tx) => {
    const changed = await change(tx);
    await tx.activity.append(ctx.organization.id, record(changed));
    return changed;
  });
}
