/** A webhook change and the activity event that records it, made in one unit of work. */
import { recordChange } from '../../activity/record-change.js';
import type { ActivityDraft, AuditWebhook } from '../../model/model.js';
import type { LatchkeyStore, StoreTransaction } from '../../store/types.js';
import { findWebhook, found } from './webhook-lookup.js';

/**
 * Changes webhook `webhookId` and records the change, in one unit of work (see
 * `recordChange` in `activity/record-change.ts`): `change` gets the webhook as it was before, `record` what `change`
 * answered and that webhook. A webhook absent before, or gone in between, is a 404.
 */
export async function changeWebhook<T>(
  store: LatchkeyStore,
  target: { organizationId: string; webhookId: string },
  change: (tx: StoreTransaction, before: AuditWebhook) => Promise<T | null | undefined>,
  record: (changed: T, before: AuditWebhook) => ActivityDraft,
): Promise<T> {
  const before = await findWebhook(store, target.organizationId, target.webhookId);
  return recordChange(
    store,
    target.organizationId,
    async (tx) => found(await change(tx, before)),
    (changed) => record(changed, before),
  );
}
