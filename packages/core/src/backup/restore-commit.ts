/** Committing a staged restore: applied whole in one transaction, or dropped. */
import type { RouteContext } from '../http/router.js';
import { applyRestore, type RestoreResult } from './restore-apply.js';
import { ownRestore, type RestoreCaller, restoreGone } from './restore-session.js';

/**
 * Applies the caller's staged restore `id` (see `applyRestore`) in one transaction, which records
 * it with the event `caller.event` makes. A commit that fails writes nothing and drops the staged
 * restore: the client begins again.
 */
export async function commitRestore(
  caller: RestoreCaller & Pick<RouteContext, 'event'>,
  id: string,
): Promise<RestoreResult> {
  const { store, keyring, ids, restores, trustedAuditKeys, webhooks } = caller.services;
  await ownRestore(caller, id);
  try {
    return await store.transaction(async (tx) => {
      // Read again inside the transaction (locking it where the store can), so two commits of one
      // session cannot both apply it.
      const session = await tx.restores.get(caller.organization.id, id, caller.at);
      if (!session) throw restoreGone();
      return applyRestore(tx, {
        session,
        organizationId: caller.organization.id,
        user: caller.principal.user,
        keyring,
        trustedAuditKeys,
        webhooks,
        ids,
        at: caller.at,
        maxLineBytes: restores.maxLineBytes,
        event: (type, data) => caller.event(type, data),
      });
    });
  } catch (error) {
    // The transaction has undone its writes; the parts go too (a retry begins again), rather
    // than filling the store until the session expires. If this fails, expiry drops them.
    await store.restores.end(id).catch(() => undefined);
    throw error;
  }
}
