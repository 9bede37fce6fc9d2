/**
 * Which actions the page offers on a request, from the member's role, the environment's policy,
 * the request's state and the screen's rights (an embedded portal session reviews only, and not
 * when read-only): the API decides (and refuses anything else), the page only never offers a
 * button that can only be refused.
 */
import type { ApprovalPolicy, ChangeRequest } from './change-types.js';
import type { Rights } from './rights.js';
import type { Me } from './types.js';

/** The actions a request may offer, each with why it is not offered when it is not. */
export interface ChangeActions {
  approve: boolean;
  /** Set when approving needs a device signature, which the browser cannot make. */
  signedOnly: boolean;
  reject: boolean;
  apply: boolean;
  cancel: boolean;
}

/** What `me` may do on `request` under `policy`, as far as `rights` reach. */
export function changeActions(
  me: Me,
  request: ChangeRequest,
  policy: ApprovalPolicy | null,
  rights: Pick<Rights, 'reviewChanges' | 'applyChanges'>,
): ChangeActions {
  const open = request.status === 'open';
  const author = request.created_by === me.user;
  // Without a policy (removed since) the default approvers stand: owners and admins.
  const approvers: readonly string[] = policy?.approver_roles ?? ['owner', 'admin'];
  const approver = approvers.includes(me.role);
  const approved = request.approvals.some((a) => a.user === me.user);
  const mayApprove = open && approver && !approved && (!author || policy?.allow_self_approval === true);
  const signedOnly = mayApprove && policy?.require_signed_approvals === true;
  return {
    approve: mayApprove && !signedOnly && rights.reviewChanges,
    signedOnly,
    reject: open && approver && rights.reviewChanges,
    apply: request.status === 'approved' && (author || approver) && rights.applyChanges,
    cancel: open && author && rights.applyChanges,
  };
}
