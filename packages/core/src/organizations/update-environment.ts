/**
 * Changing an environment's settings (strict conflict mode, approval policy), recorded as
 * `environment_updated` in one unit of work; the event names the policy's change only when the
 * request gives one.
 */
import { actingEvent } from '../activity/acting.js';
import { recordChange } from '../activity/record-change.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ApprovalPolicy } from '../model/change-request.js';
import type { Environment } from '../model/model.js';
import { actingEnvironment } from './acting-scope.js';
import type { OrganizationService } from './deps.js';

/** An update request, as the API validated it (`UpdateEnvironmentBody`): absent fields stay. */
export interface UpdateEnvironmentInput {
  require_strict_conflict_mode?: boolean | undefined;
  /** null removes the policy. */
  approval_policy?: ApprovalPolicy | null | undefined;
}

/**
 * Updates the environment the caller names and answers it as stored; gone in between, a 404
 * `not_found`.
 */
export const updateEnvironment: OrganizationService<UpdateEnvironmentInput, Environment> = (
  deps,
  acting,
  input,
) => {
  const before = actingEnvironment(acting);
  const patch = {
    require_strict_conflict_mode: input.require_strict_conflict_mode ?? before.require_strict_conflict_mode,
    approval_policy:
      input.approval_policy === undefined ? (before.approval_policy ?? null) : input.approval_policy,
  };
  return recordChange(
    deps.store,
    acting.organization.id,
    async (tx) => {
      const changed = await tx.environments.update(before.id, patch);
      if (!changed) throw new LatchkeyError('not_found', 'The environment was not found.');
      return changed;
    },
    (changed) =>
      actingEvent(deps.ids, acting, 'environment_updated', {
        require_strict_conflict_mode: changed.require_strict_conflict_mode,
        ...(input.approval_policy !== undefined && {
          approval_policy: { from: before.approval_policy ?? null, to: changed.approval_policy ?? null },
        }),
      }),
  );
};
