/**
 * Event types of change requests on protected environments: each step of a request, and a push
 * past the policy. Never a value: keys, versions, people and reasons only.
 */
import { z } from 'zod';
import { entry } from './shared.js';

const ApproverRole = z.enum(['owner', 'admin', 'developer']);

/** An environment's approval policy as events (and environment JSON) show it. */
export const ApprovalPolicyData = z.strictObject({
  required_approvals: z.int(),
  approver_roles: z.array(ApproverRole),
  allow_self_approval: z.boolean(),
  require_signed_approvals: z.boolean(),
  bypass_roles: z.array(ApproverRole),
  expires_after_hours: z.int(),
});

/** What names a request in its events. */
const Request = { change_request: z.string().describe('the request id, chr_…') };

const Change = z.strictObject({
  key: z.string(),
  action: z.enum(['set', 'delete']),
  if_version: z.int().min(0),
});

export const changeEventTypes = {
  change_request_created: entry(
    'A change request was made from a signed push (its keys and if_versions, never the values)',
    z.strictObject({
      ...Request,
      title: z.string(),
      required_approvals: z.int(),
      expires_at: z.string(),
      changes: z.array(Change),
    }),
  ),
  change_request_approved: entry(
    'A change request was approved by one more approver',
    z.strictObject({
      ...Request,
      approvals: z.int().describe('approvals so far'),
      required_approvals: z.int(),
      signed: z.boolean().describe('whether the approval was signed with a device'),
      status: z.enum(['open', 'approved']),
    }),
  ),
  change_request_rejected: entry(
    'A change request was rejected by an approver',
    z.strictObject({ ...Request, reason: z.string() }),
  ),
  change_request_cancelled: entry('A change request was cancelled by its author', z.strictObject(Request)),
  change_request_expired: entry(
    'A change request passed its expiry before it was applied',
    z.strictObject({ ...Request, expires_at: z.string() }),
  ),
  change_request_conflicted: entry(
    'An apply found keys moved since the request was made; nothing was written',
    z.strictObject({
      ...Request,
      conflicts: z.array(
        z.strictObject({ key: z.string(), server_version: z.int(), client_if_version: z.int() }),
      ),
    }),
  ),
  change_request_applied: entry(
    'A change request was applied: its push_applied event and each key’s new version',
    z.strictObject({
      ...Request,
      event_id: z.string().describe('the push_applied event'),
      approvers: z.array(z.string()),
      versions: z.array(z.strictObject({ key: z.string(), version: z.int() })),
    }),
  ),
  change_request_values_read: entry(
    'The values a change request carries were shown to a member who may read secrets',
    z.strictObject({ ...Request, keys: z.array(z.string()) }),
  ),
  change_bypassed: entry(
    'A push went past the approval policy by a role allowed to, with its reason (beside its push_applied)',
    z.strictObject({ reason: z.string(), keys: z.array(z.string()) }),
  ),
};
