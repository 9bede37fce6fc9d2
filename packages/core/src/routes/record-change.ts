/** A route's state change and the activity event that records it, made in one unit of work. */
import { recordChange as recordInStore } from '../activity/record-change.js';
import type { RouteContext } from '../http/router.js';
import type { ActivityDraft } from '../model/model.js';
import type { StoreTransaction } from '../store/types.js';

/** `recordChange` of `activity/record-change.ts`, in the request's store and organization. */
export function recordChange<T>(
  ctx: Pick<RouteContext, 'deps' | 'organization'>,
  change: (tx: StoreTransaction) => Promise<T>,
  record: (changed: T) => ActivityDraft,
): Promise<T> {
  return recordInStore(ctx.deps.store, ctx.organization.id, change, record);
}
