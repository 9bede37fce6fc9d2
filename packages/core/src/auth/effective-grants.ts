/** What a member actually holds: each permission of their role, with where it applies. */

import type { Grant, Role } from '../model/roles.js';
import {
  authorize,
  isOrganizationWide,
  PERMISSIONS,
  type Permission,
  ROLE_PERMISSIONS,
} from './permissions.js';

/**
 * One permission a member holds, and where: the organization, `all projects`, or one project (and,
 * for an environment-scoped permission, the environments of the grant).
 */
export interface EffectiveGrant {
  permission: Permission;
  scope: string;
  project?: string;
  environments?: string[];
}

/**
 * The permissions a member with `role` and `grants` holds, in the role table's order. Owners and
 * admins hold theirs on the organization or all projects; developers and viewers hold
 * organization-scoped ones outright and the others once for each grant that {@link authorize} accepts.
 */
export function effectiveGrants(role: Role, grants: Grant[]): EffectiveGrant[] {
  const out: EffectiveGrant[] = [];
  for (const permission of ROLE_PERMISSIONS[role]) {
    const scope = PERMISSIONS[permission].scope;
    if (isOrganizationWide(role) || scope === 'organization') {
      out.push({ permission, scope: scope === 'organization' ? 'organization' : 'all projects' });
      continue;
    }
    for (const grant of grants) {
      const principal = { organizationId: '', user: '', role, grants };
      if (!authorize(principal, permission, { project: grant.project }).ok) continue;
      out.push(
        scope === 'project'
          ? { permission, scope, project: grant.project }
          : { permission, scope, project: grant.project, environments: grant.environments },
      );
    }
  }
  return out;
}
