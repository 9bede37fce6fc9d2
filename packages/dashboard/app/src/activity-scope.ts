/**
 * What the signed-in member may read of the activity, and so which history route the page asks:
 * owners and admins the organization's (`activity:read_organization`); a developer or viewer only
 * a granted project's or environment's history, never an organization-wide view. The API refuses
 * anything else too; the page just never offers it.
 */

import type { ActivityFilters } from './activity-query.js';
import { seg } from './api.js';
import type { Me } from './types.js';

/** Whether `me` reads the organization's whole history (and may export it and fetch its checkpoint). */
export const readsOrganization = (me: Me) => me.role === 'owner' || me.role === 'admin';

/** The API path of the organization. */
export const organizationPath = (me: Me) =>
  `/organizations/${seg(me.organization.slug ?? me.organization.id)}`;

/** The project a member without organization-wide read sees first: their first grant's. */
export function defaultProject(me: Me): string {
  return readsOrganization(me) ? '' : (me.grants[0]?.project ?? '');
}

/** The environments of `project` a member's grants name (`null`: every one of them). */
export function grantedEnvironments(me: Me, project: string): string[] | null {
  if (readsOrganization(me)) return null;
  const grant = me.grants.find((g) => g.project === project);
  if (!grant || grant.environments.includes('*')) return grant ? null : [];
  return grant.environments.filter((e) => e !== '*');
}

/** The history route for `filters`, or null when this member must pick a project first. */
export function historyPath(me: Me, filters: ActivityFilters): string | null {
  const org = organizationPath(me);
  const project = filters.project || defaultProject(me);
  if (project && filters.environment) {
    return `${org}/projects/${seg(project)}/environments/${seg(filters.environment)}/history`;
  }
  if (project) return `${org}/projects/${seg(project)}/history`;
  return readsOrganization(me) ? `${org}/history` : null;
}
