/** Committing a staged restore: applied whole in one transaction (or in short steps), or dropped. */
import type { MakeEvent } from '../../activity/event-maker.js';
import type { RestoreSession } from '../../store/types.js';
import { applyRestore, type RestoreInput, type RestoreResult } from './apply.js';
import { ownRestore, type RestoreCaller, restoreGone } from './session.js';
import { applyRestoreInSteps } from './steps.js';

/**
 * Applies the caller's staged restore `id` (see `applyRestore`) in one transaction, which records
 * it with the event `caller.event` makes; on a store with `serialTransactions`, in short steps
 * (`applyRestoreInSteps`), the organization unavailable meanwhile. A commit that fails writes
 * nothing (in steps, past the first pass, it leaves the organization empty) and drops the staged
 * restore: the client begins again.
 */
export async function commitRestore(
  caller: RestoreCaller & { event: MakeEvent },
  id: string,
): Promise<RestoreResult> {
  const { store, keyring, ids, restores, trustedAuditKeys, webhooks, workload } = caller.deps;
  const own = await ownRestore(caller, id);
  const inputFor = (session: RestoreSession): RestoreInput => ({
    session,
    organizationId: caller.organization.id,
    user: caller.principal.user,
    keyring,
    trustedAuditKeys,
    webhooks,
    trustedIssuers: workload.trusted,
    ids,
    at: caller.at,
    maxLineBytes: restores.maxLineBytes,
    event: (type, data) => caller.event(type, data),
  });
  try {
    // Where one transaction would hold every other organization, in short steps instead.
    if (store.serialTransactions) return await applyRestoreInSteps(store, inputFor(own), restoreGone);
    return await store.transaction(async (tx) => {
      // Read again inside the transaction (locking it where the store can), so two commits of one
      // session cannot both apply it.
      const session = await tx.restores.get(caller.organization.id, id, caller.at);
      if (!session) throw restoreGone();
      return applyRestore(tx, inputFor(session));
    });
  } catch (error) {
    // The transaction has undone its writes; the parts go too (a retry begins again), rather
    // than filling the store until the session expires. If this fails, expiry drops them.
    await store.restores.end(id).catch(() => undefined);
    throw error;
  }
}
