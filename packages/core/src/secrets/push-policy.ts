/**
 * A plain push to an environment under an approval policy: refused with `approval_required`, unless
 * it carries `bypass_reason` and the pusher's role is one the policy lets past (and holds
 * `changes:bypass` there). The bypass is then recorded as `change_bypassed` beside its push.
 */
import { authorize, type Principal } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Environment } from '../model/model.js';
import type { PushAddress } from './signatures.js';

/** The reason of an allowed bypass, null when the environment has no policy; else the refusal. */
export function policyBypass(
  bypassReason: string | undefined,
  environment: Environment,
  principal: Principal,
  address: PushAddress,
): string | null {
  const policy = environment.approval_policy;
  if (!policy) {
    if (bypassReason === undefined) return null;
    throw new LatchkeyError(
      'invalid_request',
      'bypass_reason is only for environments under an approval policy.',
      {
        details: [{ path: 'body.bypass_reason', message: 'this environment has no approval policy' }],
      },
    );
  }
  if (bypassReason === undefined) {
    throw new LatchkeyError(
      'approval_required',
      `${address.project}/${address.environment} requires ${policy.required_approvals} approval(s) from ` +
        `${policy.approver_roles.join(', ')}: make a change request (push --propose) instead.`,
    );
  }
  const allowed =
    (policy.bypass_roles as readonly string[]).includes(principal.role) &&
    authorize(principal, 'changes:bypass', address).ok;
  if (!allowed) {
    throw new LatchkeyError(
      'forbidden',
      `Role ${principal.role} may not bypass the approval policy of ${address.project}/${address.environment}.`,
    );
  }
  return bypassReason;
}
