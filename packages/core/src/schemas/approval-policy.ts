/**
 * An environment's approval policy as `PATCH …/environments/{environment}` takes it and environment
 * JSON shows it. `required_approvals` has no default: a policy never fails open.
 */
import { z } from 'zod';
import { ApprovalPolicyData } from '../activity/event-types/changes.js';

/** The roles that may approve: anyone who can push, viewers never. */
const ApproverRole = z.enum(['owner', 'admin', 'developer']);

/** The policy as sent: the defaults filled in, every count bounded. */
export const ApprovalPolicySchema = z.strictObject({
  required_approvals: z.int().min(1).max(10).describe('1 to 10; 0 or missing is refused'),
  approver_roles: z
    .array(ApproverRole)
    .min(1)
    .max(3)
    .default(['owner', 'admin'])
    .describe('Who may approve or reject'),
  allow_self_approval: z.boolean().default(false),
  require_signed_approvals: z
    .boolean()
    .default(false)
    .describe("Each approval signed with the approver's device"),
  bypass_roles: z
    .array(ApproverRole)
    .max(3)
    .default([])
    .describe('Who may push past the policy with bypass_reason'),
  expires_after_hours: z.int().min(1).max(720).default(72),
});

/** The policy as environment JSON shows it (the events' shape). */
export const ApprovalPolicyView = ApprovalPolicyData;
