/**
 * The smallest tenancy a store conformance test pushes into: an organization, a project `p` and an
 * environment `prod` (not strict), written through the store's own repositories; and its parts, for
 * tests that need another project or more environments.
 */
import type { LatchkeyStore } from '@latchkey/core/store';

/** Creates a project (named as its slug) in `orgId`; answers its id. */
export async function createProject(
  store: LatchkeyStore,
  id: (prefix: string) => string,
  orgId: string,
  at: string,
  slug = 'p',
): Promise<string> {
  const projectId = id('prj');
  await store.projects.create({ id: projectId, organization_id: orgId, slug, name: slug, created_at: at });
  return projectId;
}

/** Creates an environment (not strict) in `projectId`; answers its id. */
export async function createEnvironment(
  store: LatchkeyStore,
  id: (prefix: string) => string,
  orgId: string,
  projectId: string,
  at: string,
  slug = 'prod',
): Promise<string> {
  const envId = id('env');
  await store.environments.create({
    id: envId,
    organization_id: orgId,
    project_id: projectId,
    slug,
    require_strict_conflict_mode: false,
    created_at: at,
  });
  return envId;
}

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
  const projectId = await createProject(store, id, orgId, at);
  const envId = await createEnvironment(store, id, orgId, projectId, at);
  return { orgId, projectId, envId };
}
