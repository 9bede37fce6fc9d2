/** Creating a project of the organization, recorded as `project_created` in one unit of work. */
import { type Acting, actingEvent } from '../activity/acting.js';
import { recordChange } from '../activity/record-change.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Project } from '../model/model.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { LatchkeyStore } from '../store/types.js';

/** A create request, as the API validated it (`CreateProjectBody`). */
export interface CreateProjectInput {
  slug: string;
  /** Absent: the slug. */
  name?: string | undefined;
}

/** Creates a project in the caller's organization; a taken slug is a 409 `already_exists`. */
export async function createProject(
  deps: { store: LatchkeyStore; ids: IdGenerator },
  acting: Acting,
  input: CreateProjectInput,
): Promise<Project> {
  const project = {
    id: deps.ids('prj'),
    organization_id: acting.organization.id,
    slug: input.slug,
    name: input.name ?? input.slug,
    created_at: acting.at,
  };
  await recordChange(
    deps.store,
    acting.organization.id,
    async (tx) => {
      if ((await tx.projects.create(project)) === 'exists') {
        throw new LatchkeyError('already_exists', `A project ${input.slug} already exists.`);
      }
    },
    () =>
      actingEvent(deps.ids, acting, 'project_created', { project: project.slug }, { project: project.slug }),
  );
  return project;
}
