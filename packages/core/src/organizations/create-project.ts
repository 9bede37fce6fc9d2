/** Creating a project of the organization, recorded as `project_created` in one unit of work. */
import { actingEvent } from '../activity/acting.js';
import { recordCreate } from '../activity/record-change.js';
import type { Project } from '../model/model.js';
import type { OrganizationService } from './deps.js';

/** A create request, as the API validated it (`CreateProjectBody`). */
export interface CreateProjectInput {
  slug: string;
  /** Absent: the slug. */
  name?: string | undefined;
}

/** Creates a project in the caller's organization; a taken slug is a 409 `already_exists`. */
export const createProject: OrganizationService<CreateProjectInput, Project> = async (
  deps,
  acting,
  input,
) => {
  const project = {
    id: deps.ids('prj'),
    organization_id: acting.organization.id,
    slug: input.slug,
    name: input.name ?? input.slug,
    created_at: acting.at,
  };
  await recordCreate(
    deps.store,
    acting.organization.id,
    (tx) => tx.projects.create(project),
    `A project ${input.slug} already exists.`,
    () =>
      actingEvent(deps.ids, acting, 'project_created', { project: project.slug }, { project: project.slug }),
  );
  return project;
};
