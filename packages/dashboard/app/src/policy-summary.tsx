/** An environment's approval policy in one sentence or two, or that it has none. */
import type { ApprovalPolicy } from './change-types.js';

const roles = (list: string[]) => (list.length ? list.join(', ') : 'nobody');

/** What the policy asks for before a change is applied. */
export function PolicySummary({ policy }: { policy: ApprovalPolicy | null }) {
  if (!policy) {
    return (
      <p class="policy" data-policy="none">
        No approval policy: pushes apply directly. Requests made earlier are still listed here.
      </p>
    );
  }
  return (
    <p class="policy" data-policy="set">
      Approval policy: <strong>{policy.required_approvals}</strong> approval
      {policy.required_approvals === 1 ? '' : 's'} by {roles(policy.approver_roles)}
      {policy.allow_self_approval ? ' (the author may approve)' : ' (not the author)'}
      {policy.require_signed_approvals ? ', each signed with a device' : ''}; requests expire after{' '}
      {policy.expires_after_hours} h. Bypass with a reason: {roles(policy.bypass_roles)}.
    </p>
  );
}
