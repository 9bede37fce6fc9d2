/**
 * The choices of the Activity filters: the event-type catalog, the projects the member can see,
 * and the environments of the chosen project (a developer's or viewer's: only the granted ones).
 */

import { grantedEnvironments, organizationPath } from './activity-scope.js';
import { api, seg } from './api.js';
import type { EnvironmentList, EventTypeList, Me, ProjectList } from './types.js';
import { useRequest } from './use-request.js';

/** The names each select offers (empty while loading or after an error: the field still works). */
export interface FilterOptions {
  types: string[];
  projects: string[];
  environments: string[];
  /** Whether the environments are all of the project's (no grant narrows them). */
  allEnvironments: boolean;
}

/** The environments of `project` in the organization at `org` (none, and no request, for ''). */
export function useEnvironmentList(org: string, project: string) {
  return useRequest(
    () =>
      project
        ? api<EnvironmentList>('GET', `${org}/projects/${seg(project)}/environments`)
        : Promise.resolve({ environments: [] }),
    `${org} ${project} environments`,
  );
}

/** The options for a form whose project is `project` ('' for none). */
export function useFilterOptions(me: Me, project: string): FilterOptions {
  const org = organizationPath(me);
  const types = useRequest(() => api<EventTypeList>('GET', '/event-types'), 'event-types');
  const projects = useRequest(() => api<ProjectList>('GET', `${org}/projects`), `${org} projects`);
  const environments = useEnvironmentList(org, project);
  const granted = grantedEnvironments(me, project);
  return {
    types: types.data?.event_types.map((t) => t.type) ?? [],
    projects: projects.data?.projects.map((p) => p.slug) ?? [],
    environments: (environments.data?.environments.map((e) => e.slug) ?? []).filter(
      (e) => granted === null || granted.includes(e),
    ),
    allEnvironments: granted === null,
  };
}
