/**
 * The smallest tenancy a store conformance test pushes into: an organization, a project `p` and an
 * environment `prod` (not strict), written through the store's own repositories.
 */
import type { LatchkeyStore } from '@latchkey/core/store';

/** Creates the organization (slug `<prefix>-<id tail>`), project and environment; answers their ids. */
export async function createOrgEnvironment(
  store: LatchkeyStore,
  id: (prefix: string) => string,
  slugPrefix: string,
  at: string,
): Promise<{ orgId: string; projectId: string; envId: string }> {
  const orgId = id('org');
  await store.organizations.create({
    id: orgId,
    slug: `${slugPrefix}-${orgId.slice(-8)}`,
    name: 'T',
    created_at: at,
  });
  const projectId = id('prj');
  await store.projects.create({
    id: projectId,
    organization_id: orgId,
    slug: 'p',
    name: 'p',
    created_at: at,
  });
  const envId = id('env');
  await store.environments.create({
    id: envId,
    organization_id: orgId,
    project_id: projectId,
    slug: 'prod',
    require_strict_conflict_mode: false,
    created_at: at,
  });
  return { orgId, projectId, envId };
}
