/** Creating an environment in the caller's project, recorded as `environment_created` in one unit of work. */
import { actingEvent } from '../activity/acting.js';
import { recordCreate } from '../activity/record-change.js';
import type { Environment } from '../model/model.js';
import { actingProject } from './acting-scope.js';
import type { OrganizationService } from './deps.js';

/** A create request, as the API validated it (`CreateEnvironmentBody`). */
export interface CreateEnvironmentInput {
  slug: string;
  /** Absent: false. */
  require_strict_conflict_mode?: boolean | undefined;
}

/**
 * Creates an environment, without an approval policy, in the project the caller names; a slug taken
 * in the project is a 409 `already_exists`.
 */
export const createEnvironment: OrganizationService<CreateEnvironmentInput, Environment> = async (
  deps,
  acting,
  input,
) => {
  const project = actingProject(acting);
  const environment = {
    id: deps.ids('env'),
    organization_id: acting.organization.id,
    project_id: project.id,
    slug: input.slug,
    require_strict_conflict_mode: input.require_strict_conflict_mode ?? false,
    approval_policy: null,
    created_at: acting.at,
  };
  await recordCreate(
    deps.store,
    acting.organization.id,
    (tx) => tx.environments.create(environment),
    `An environment ${input.slug} already exists in ${project.slug}.`,
    () =>
      actingEvent(
        deps.ids,
        acting,
        'environment_created',
        { require_strict_conflict_mode: environment.require_strict_conflict_mode },
        { environment: environment.slug },
      ),
  );
  return environment;
};
