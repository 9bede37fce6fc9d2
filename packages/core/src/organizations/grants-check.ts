/** The check of a member's grants: each names a project, and environments, that exist. */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Grant } from '../model/roles.js';
import type { LatchkeyStore } from '../store/types.js';

/**
 * `grants` once every project and environment they name exists in organization `organizationId`;
 * otherwise 400 `invalid_request`, with one detail per unknown name (paths under `body.grants`).
 */
export async function checkGrants(
  store: LatchkeyStore,
  organizationId: string,
  grants: Grant[],
): Promise<Grant[]> {
  const details: { path: string; message: string }[] = [];
  for (const [i, grant] of grants.entries()) {
    const project = await store.projects.get(organizationId, grant.project);
    if (!project) {
      details.push({ path: `body.grants.${i}.project`, message: 'no such project' });
      continue;
    }
    for (const [j, env] of grant.environments.entries()) {
      if (env !== '*' && !(await store.environments.get(project.id, env))) {
        details.push({ path: `body.grants.${i}.environments.${j}`, message: 'no such environment' });
      }
    }
  }
  if (details.length > 0)
    throw new LatchkeyError('invalid_request', 'The grants name unknown resources.', { details });
  return grants;
}
