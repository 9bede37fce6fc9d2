/**
 * Applying a staged restore in short steps, on a store where one transaction holds every other
 * caller until it ends (`serialTransactions`: the memory store's lock, PGlite's one connection).
 * A restore of 150,000 versions takes seconds, and in one transaction it held every organization's
 * requests that long. Here nothing is held longer than one batch of writes: the first pass reads
 * and checks the whole backup while nothing is held, then the organization is cleared and written
 * batch by batch, and a short transaction ends it with its event. Meanwhile every request acting
 * on the organization answers 503 (`restoring.ts`), so nobody sees its content half written; a SQL
 * store that opens on a restore its process did not finish empties the organization (`claim`).
 */

import { restoringIn } from '../../health/restoring.js';
import type { LatchkeyStore } from '../../store/types.js';
import {
  checkRestore,
  finishRestore,
  type RestoreInput,
  type RestoreResult,
  replacedChain,
  writeRestore,
} from './apply.js';
import { STEP_BATCH } from './writer.js';

/**
 * Applies the staged restore `input.session` as {@link applyRestore} does, in short steps. A fault
 * in the first pass, or a refusal, writes nothing. A fault once the organization is cleared (none
 * is expected: the second pass reads the parts the first one checked, which nobody can send again
 * while the organization answers 503) leaves it empty, the restorer its owner.
 */
export async function applyRestoreInSteps(
  store: LatchkeyStore,
  input: RestoreInput,
  gone: () => Error,
): Promise<RestoreResult> {
  const { session, organizationId } = input;
  const steps = { ...input, batch: STEP_BATCH };
  const restoring = restoringIn(store);
  if (restoring.has(organizationId)) throw gone();
  restoring.add(organizationId);
  try {
    // Marked, so that a restart finds a restore that did not end (and the expiry sweep leaves it).
    if (!(await store.restores.claim(organizationId, session.id, input.at))) throw gone();
    const plan = await checkRestore(store, input);
    const replaced = await replacedChain(store, input);
    await store.restores.clearOrganization(organizationId, { inSteps: true });
    try {
      await writeRestore(store, steps, plan);
      // Read twice and no longer needed: dropped in steps, not by the transaction that ends it.
      await store.restores.dropParts(session.id);
      return await store.transaction((tx) => finishRestore(tx, input, plan, replaced));
    } catch (error) {
      await store.restores.clearOrganization(organizationId, { inSteps: true });
      await store.members.create({
        organization_id: organizationId,
        user: input.user,
        role: 'owner',
        grants: [],
        created_at: input.at,
      });
      throw error;
    }
  } finally {
    restoring.delete(organizationId);
  }
}
