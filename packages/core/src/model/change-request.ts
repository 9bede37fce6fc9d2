/**
 * Change requests: an environment's approval policy and a request that carries a signed push's
 * changes until enough approvers agree (the rules are in `changes/`). The store's port names them,
 * so they sit beneath it.
 */
import type { Role } from './roles.js';

/** The roles a policy may name: anyone who can push (viewers never). */
export type PolicyRole = Exclude<Role, 'viewer'>;

/** The approvals a protected environment asks for before a change is applied. */
export interface ApprovalPolicy {
  /** 1 to 10: a policy never fails open. */
  required_approvals: number;
  /** The roles that may approve or reject. */
  approver_roles: PolicyRole[];
  /** Whether the author may approve their own request. */
  allow_self_approval: boolean;
  /** Whether an approval must be signed with the approver's device. */
  require_signed_approvals: boolean;
  /** The roles that may push past the policy with a reason. */
  bypass_roles: PolicyRole[];
  /** How long a request stays open, 1 to 720 hours. */
  expires_after_hours: number;
}

/** The states of a change request. */
export const CHANGE_REQUEST_STATUSES = [
  'open',
  'approved',
  'applied',
  'rejected',
  'cancelled',
  'expired',
  'conflicted',
] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

/** One change a request carries; `value` sealed at rest as a secret's (null for a delete). */
export interface ChangeRequestChange {
  key: string;
  action: 'set' | 'delete';
  if_version: number;
  value: string | null;
}

/** One approval of a request. */
export interface ChangeRequestApproval {
  user: string;
  approved_at: string;
  comment?: string | undefined;
  device_id?: string | undefined;
}

/** A stored change request. `revision` grows with every change, so a write compares and sets. */
export interface ChangeRequest {
  id: string;
  organization_id: string;
  project_id: string;
  environment_id: string;
  /** The project's and environment's slugs when it was made. */
  project: string;
  environment: string;
  status: ChangeRequestStatus;
  title: string;
  description: string;
  created_by: string;
  device_id: string;
  created_at: string;
  expires_at: string;
  required_approvals: number;
  changes: ChangeRequestChange[];
  approvals: ChangeRequestApproval[];
  rejection: { user: string; reason: string; at: string } | null;
  applied: { event_id: string; versions: { key: string; version: number }[] } | null;
  revision: number;
}
