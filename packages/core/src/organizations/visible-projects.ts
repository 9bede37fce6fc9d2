/** The projects of the organization a caller can see: all for organization-wide roles, else its grants'. */
import type { Acting } from '../activity/acting.js';
import { canSeeProject } from '../auth/permissions.js';
import type { Project } from '../model/model.js';
import type { LatchkeyStore } from '../store/types.js';

/** The organization's projects the caller's principal can see, in the store's order. */
export async function visibleProjects(
  store: LatchkeyStore,
  acting: Pick<Acting, 'principal' | 'organization'>,
): Promise<Project[]> {
  const projects = await store.projects.list(acting.organization.id);
  return projects.filter((p) => canSeeProject(acting.principal, p.slug));
}
