/**
 * The review of a change request: approve (an approver role reaching the environment, the author
 * only when the policy allows it, once per user, device-signed when the policy asks), reject (an
 * approver) and cancel (the author). Each is a compare-and-set with its event in one unit of work.
 */
import { authorize } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ApprovalPolicy, ChangeRequest } from '../model/change-request.js';
import type { ActivityDraft } from '../model/model.js';
import type { ApproveBodyInput } from '../schemas/change-requests.js';
import type { ChangeRequestPatch } from '../store/ports/change-requests.js';
import { checkSignedApproval } from './approval-signature.js';
import { addressOf, type ChangeScope, type ChangeServices, changeEvent } from './change-services.js';
import { loadRequest, requireStatus } from './load-request.js';

/** What an environment whose policy was removed meanwhile asks of its remaining requests. */
const FALLBACK: ApprovalPolicy = {
  required_approvals: 1,
  approver_roles: ['owner', 'admin'],
  allow_self_approval: false,
  require_signed_approvals: false,
  bypass_roles: [],
  expires_after_hours: 72,
};

/** The environment's policy as it stands (a removed one reviews as the defaults). */
export const policyOf = (scope: ChangeScope): ApprovalPolicy => scope.environment.approval_policy ?? FALLBACK;

/** A 403 unless the caller's role is one of the policy's approvers and reaches the environment. */
function requireApprover(scope: ChangeScope): void {
  const policy = policyOf(scope);
  const inPolicy = (policy.approver_roles as readonly string[]).includes(scope.principal.role);
  if (!inPolicy || !authorize(scope.principal, 'changes:approve', addressOf(scope)).ok) {
    throw new LatchkeyError(
      'forbidden',
      `Role ${scope.principal.role} may not review changes here (approvers: ${policy.approver_roles.join(', ')}).`,
    );
  }
}

/** Adds the caller's approval; the request becomes `approved` with enough of them. */
export function approveRequest(
  services: ChangeServices,
  scope: ChangeScope,
  id: string,
  body: ApproveBodyInput,
) {
  return settle(services, scope, id, async (request) => {
    const user = scope.principal.user;
    if (request.approvals.some((a) => a.user === user)) {
      throw new LatchkeyError('already_approved', `You have approved ${request.id} already.`);
    }
    requireStatus(request, 'open');
    requireApprover(scope);
    const policy = policyOf(scope);
    if (request.created_by === user && !policy.allow_self_approval) {
      throw new LatchkeyError(
        'forbidden',
        'You made this change request; the policy does not allow self-approval.',
      );
    }
    const device_id = policy.require_signed_approvals
      ? await checkSignedApproval(services, scope, request, body)
      : undefined;
    const approvals = [
      ...request.approvals,
      {
        user,
        approved_at: scope.at,
        ...(body.comment && { comment: body.comment }),
        ...(device_id && { device_id }),
      },
    ];
    const status = approvals.length >= request.required_approvals ? 'approved' : 'open';
    return {
      patch: { approvals, status },
      event: changeEvent(services, scope, 'change_request_approved', {
        change_request: request.id,
        approvals: approvals.length,
        required_approvals: request.required_approvals,
        signed: device_id !== undefined,
        status,
      }),
    };
  });
}

/** Rejects the request (an approver, the author included). */
export function rejectRequest(services: ChangeServices, scope: ChangeScope, id: string, reason: string) {
  return settle(services, scope, id, async (request) => {
    requireStatus(request, 'open', 'approved');
    requireApprover(scope);
    return {
      patch: { status: 'rejected', rejection: { user: scope.principal.user, reason, at: scope.at } },
      event: changeEvent(services, scope, 'change_request_rejected', { change_request: request.id, reason }),
    };
  });
}

/** Cancels the request (its author only). */
export function cancelRequest(services: ChangeServices, scope: ChangeScope, id: string) {
  return settle(services, scope, id, async (request) => {
    requireStatus(request, 'open', 'approved');
    if (request.created_by !== scope.principal.user) {
      throw new LatchkeyError('forbidden', 'Only the author of a change request may cancel it.');
    }
    return {
      patch: { status: 'cancelled' },
      event: changeEvent(services, scope, 'change_request_cancelled', { change_request: request.id }),
    };
  });
}

/** A decided step: the request's new fields and the event that records them. */
interface Step {
  patch: ChangeRequestPatch;
  event: ActivityDraft;
}

/**
 * Reads the request, decides the step and writes it with its event by compare-and-set; when
 * another step won meanwhile, decides again on what it left (at most three times).
 */
async function settle(
  services: ChangeServices,
  scope: ChangeScope,
  id: string,
  decide: (request: ChangeRequest) => Promise<Step>,
): Promise<ChangeRequest> {
  for (let attempt = 0; ; attempt++) {
    const request = await loadRequest(services, scope, id);
    const step = await decide(request);
    const changed = await services.store.transaction(async (tx) => {
      const updated = await tx.changeRequests.update(request.id, request.revision, step.patch);
      if (updated) await tx.activity.append(scope.organization.id, step.event);
      return updated;
    });
    if (changed) return changed;
    if (attempt === 2)
      throw new LatchkeyError('service_unavailable', 'The change request is busy; try again.');
  }
}
