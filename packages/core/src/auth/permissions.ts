/**
 * Roles, permissions and the scope each permission applies at. Authorization answers
 * `{ok:true} | {ok:false, reason}`; only the HTTP layer turns a refusal into a 403.
 */
import type { Actor } from '../model/model.js';
import type { PortalCapability } from '../model/portal-session.js';
import type { Grant, Role } from '../model/roles.js';

/** Where a permission is checked: on the organization, a project, or one environment of a project. */
export type PermissionScope = 'organization' | 'project' | 'environment';

/** A permission checked at `scope`, allowing what `description` says. */
const checkedAt = <S extends PermissionScope>(scope: S, description: string) => ({ scope, description });

/** Every permission, with the scope it is checked at and what it allows. */
export const PERMISSIONS = {
  'organization:read': checkedAt('organization', 'Read the organization itself.'),
  'projects:read': checkedAt('project', 'List and read projects and their environments.'),
  'projects:manage': checkedAt('organization', 'Create projects.'),
  'environments:manage': checkedAt(
    'project',
    'Create environments and change their settings (e.g. require strict conflict mode).',
  ),
  'secrets:read': checkedAt('environment', 'Pull the secrets of an environment.'),
  'secrets:push': checkedAt('environment', 'Push signed changes to an environment.'),
  'secrets:force_overwrite': checkedAt(
    'environment',
    'Push with force_overwrite, bypassing optimistic locking (recorded as push_force_overwrite).',
  ),
  'changes:propose': checkedAt(
    'environment',
    'Make change requests (a signed push held for approval) in a protected environment.',
  ),
  'changes:approve': checkedAt(
    'environment',
    "Approve or reject change requests; the environment's policy narrows it to its approver_roles.",
  ),
  'changes:bypass': checkedAt(
    'environment',
    'Push past an approval policy with a reason; the policy narrows it to its bypass_roles.',
  ),
  'devices:manage': checkedAt('organization', 'Enroll, list and revoke your own devices.'),
  'devices:manage_all': checkedAt('organization', "List and revoke every member's devices."),
  'members:read': checkedAt('organization', 'List the members and their roles and grants.'),
  'members:manage': checkedAt('organization', 'Add, change and remove members; read the permission matrix.'),
  'tokens:manage': checkedAt('organization', 'Create, list and revoke API tokens.'),
  'portal_sessions:manage': checkedAt(
    'organization',
    'Mint, list and end portal sessions (the dashboard embedded in the host app).',
  ),
  'activity:read': checkedAt(
    'environment',
    'Read the history of the projects and environments you may read.',
  ),
  'activity:read_organization': checkedAt(
    'organization',
    'Read the whole organization’s history, every project and environment included.',
  ),
  'activity:export': checkedAt('organization', 'Export the activity log.'),
  'audit_webhooks:manage': checkedAt('organization', 'Create and manage audit webhooks.'),
  'backup:create': checkedAt('organization', 'Create an encrypted backup.'),
  'backup:restore': checkedAt('organization', 'Restore an encrypted backup.'),
  'workload_identities:manage': checkedAt(
    'organization',
    'Create, list and delete workload identities: the CI jobs whose OIDC ID tokens are exchanged for short-lived tokens.',
  ),
  'activity:manage_witnesses': checkedAt(
    'organization',
    'Register and remove the witnesses whose cosignatures of the activity log’s tree heads are kept.',
  ),
} as const satisfies Record<string, { scope: PermissionScope; description: string }>;

export type Permission = keyof typeof PERMISSIONS;

const ALL = Object.keys(PERMISSIONS) as Permission[];

/**
 * The default role table, as data. Owners and admins act on every project and environment; admins
 * hold everything but `backup:restore` and `activity:manage_witnesses`, and act on no owner (see {@link mayActOn}). Developers and
 * viewers hold their permissions only on the projects and environments granted to them.
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: ALL,
  // Witnesses decide who vouches for the log against the operator: an owner's choice only.
  admin: ALL.filter(
    (permission) => permission !== 'backup:restore' && permission !== 'activity:manage_witnesses',
  ),
  developer: [
    'organization:read',
    'projects:read',
    'members:read',
    'secrets:read',
    'secrets:push',
    'changes:propose',
    'changes:approve',
    'changes:bypass',
    'devices:manage',
    'activity:read',
  ],
  viewer: ['organization:read', 'projects:read', 'members:read', 'secrets:read', 'activity:read'],
};

/** Who is calling, after authentication and membership lookup. */
export interface Principal {
  organizationId: string;
  user: string;
  role: Role;
  grants: Grant[];
  /** The API token id when the call used a built-in token. */
  tokenId?: string | undefined;
  /**
   * Set for a workload token (`POST /workload-tokens`): `user` is then the identity's id, `grants`
   * its grants, and only `actions` are allowed, whatever the role says.
   */
  workload?: WorkloadCaller | undefined;
  /** When the call used a portal session's token: what the session allows beside the member's role. */
  portal?: PortalGrant | undefined;
}

/** What a portal session's token may do, within its member's own permissions. */
export interface PortalGrant {
  sessionId: string;
  capabilities: readonly PortalCapability[];
  readOnly: boolean;
}

/** What a workload token's principal carries besides its grants. */
export interface WorkloadCaller {
  identityId: string;
  /** The ephemeral device issued with the token: the only one its pushes may be signed by. */
  deviceId: string;
  actions: readonly string[];
}

/** Who the events of a principal's requests name as their actor. */
export function actorOf(principal: Pick<Principal, 'user' | 'workload'>): Actor {
  return principal.workload
    ? { type: 'workload', id: principal.workload.identityId }
    : { type: 'user', id: principal.user };
}

/** The resource a permission is checked against. Slugs, as in paths. */
export interface ScopeTarget {
  project?: string | undefined;
  environment?: string | undefined;
}

/** The answer of {@link authorize}. */
export type AuthorizationResult = { ok: true } | { ok: false; reason: string };

/** True when the role acts on every project and environment without grants. */
export function isOrganizationWide(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}

/** Whether `principal` may perform `permission` on `target`. */
export function authorize(
  principal: Principal,
  permission: Permission,
  target: ScopeTarget = {},
): AuthorizationResult {
  if (principal.workload) {
    if (!principal.workload.actions.includes(permission))
      return { ok: false, reason: `the workload identity lacks ${permission}` };
  } else if (!ROLE_PERMISSIONS[principal.role].includes(permission)) {
    return { ok: false, reason: `role ${principal.role} lacks ${permission}` };
  }
  if (isOrganizationWide(principal.role)) return { ok: true };
  const scope = PERMISSIONS[permission].scope;
  if (scope === 'organization' || target.project === undefined) return { ok: true };
  const grant = principal.grants.find((g) => g.project === target.project);
  if (!grant) return { ok: false, reason: `no grant on project ${target.project}` };
  if (scope === 'project' || target.environment === undefined) return { ok: true };
  if (grant.environments.includes('*') || grant.environments.includes(target.environment))
    return { ok: true };
  return { ok: false, reason: `no grant on environment ${target.environment}` };
}

/** Whether a principal can see a project at all (used to filter lists). */
export function canSeeProject(principal: Principal, project: string): boolean {
  return isOrganizationWide(principal.role) || principal.grants.some((g) => g.project === project);
}

/**
 * Rank of each role, highest first: a member may act on (create a token for, revoke the token or
 * device of, add, and later change or remove) only members whose role ranks no higher than their own.
 */
const ROLE_RANK: Readonly<Record<Role, number>> = { owner: 3, admin: 2, developer: 1, viewer: 0 };

/**
 * Whether `principal` may act on a member whose role is `targetRole`: the target must not rank above
 * the principal, so only owners act on owners and an admin can never gain an owner's power through
 * an owner's token or device. The permission itself (`tokens:manage`, ...) is checked separately.
 */
export function mayActOn(principal: Pick<Principal, 'role'>, targetRole: Role): AuthorizationResult {
  if (ROLE_RANK[targetRole] > ROLE_RANK[principal.role]) {
    return { ok: false, reason: `role ${principal.role} cannot act on a member with role ${targetRole}` };
  }
  return { ok: true };
}

/**
 * Whether `principal` may move a member from role `from` to role `to` (for changing or adding a
 * member: pass the same role twice to add). Both the member as it is and as it would become must be
 * within reach, so an admin can neither demote an owner nor promote anyone to owner.
 */
export function mayChangeRole(principal: Pick<Principal, 'role'>, from: Role, to: Role): AuthorizationResult {
  const before = mayActOn(principal, from);
  return before.ok ? mayActOn(principal, to) : before;
}
