/**
 * The organization's services on the memory store, called as the routes call them: each refusal
 * writes nothing and records nothing, each change is recorded once, in the caller's scope.
 */
import { describe, expect, it } from 'vitest';
import type { Acting } from '../activity/acting.js';
import type { Principal } from '../auth/permissions.js';
import { hashToken } from '../auth/tokens.js';
import { createMemoryStore } from '../memory/index.js';
import type { ApprovalPolicy } from '../model/change-request.js';
import type { Environment, Organization, Project } from '../model/model.js';
import { createEnvironment } from './create-environment.js';
import { type CreateOrganizationDeps, createOrganization } from './create-organization.js';
import { createProject } from './create-project.js';
import { updateEnvironment } from './update-environment.js';
import { visibleProjects } from './visible-projects.js';

const AT = '2026-03-01T12:00:00.000Z';
const HOME: Organization = { id: 'org_home', slug: 'home', name: 'Home', created_at: AT };
const owner: Principal = { organizationId: HOME.id, user: 'usr_ann', role: 'owner', grants: [] };

/** A store, the parts of the core the services use (ids counted), and the log of an organization. */
function world(overrides: Partial<CreateOrganizationDeps> = {}) {
  const store = createMemoryStore();
  let next = 0;
  const deps: CreateOrganizationDeps = {
    store,
    ids: (prefix) => `${prefix}_${String(++next).padStart(4, '0')}`,
    allowOrganizationCreation: true,
    limits: { organizationsPerUser: 2 },
    ...overrides,
  };
  const log = (organizationId: string) =>
    store.activity.list({ organizationId, oldestFirst: true, limit: 100 });
  return { store, deps, log };
}

/** An organization, made by the service, and the caller acting in it as its owner. */
async function acme(deps: CreateOrganizationDeps): Promise<Acting> {
  const { organization } = await createOrganization(
    deps,
    { principal: owner, organization: HOME, at: AT },
    {
      slug: 'acme',
    },
  );
  return { principal: { ...owner, organizationId: organization.id }, organization, at: AT };
}

describe('createOrganization', () => {
  it('makes the caller its owner with a token, and starts its own chain with three events', async () => {
    const { store, deps, log } = world();
    const created = await createOrganization(
      deps,
      { principal: owner, organization: HOME, at: AT },
      { slug: 'acme', name: 'Acme' },
    );
    const id = created.organization.id;
    expect(created.organization).toEqual({ id, slug: 'acme', name: 'Acme', created_at: AT });
    expect((await store.members.get(id, 'usr_ann'))?.role).toBe('owner');
    const token = await store.tokens.findByHash(hashToken(created.token));
    expect(token).toMatchObject({ organization_id: id, user: 'usr_ann', revoked_at: null });
    const events = await log(id);
    expect(events.map((e) => [e.type, e.organization, e.actor])).toEqual([
      ['organization_created', 'acme', { type: 'user', id: 'usr_ann' }],
      ['member_added', 'acme', { type: 'user', id: 'usr_ann' }],
      ['token_created', 'acme', { type: 'user', id: 'usr_ann' }],
    ]);
    expect(events[2]?.data).toEqual({
      token_id: token?.id,
      user: 'usr_ann',
      name: 'created with the organization',
    });
  });

  it('is refused unless the host enables it, a taken slug and past the bound, writing nothing', async () => {
    const closed = world({ allowOrganizationCreation: false });
    const acting = { principal: owner, organization: HOME, at: AT };
    await expect(createOrganization(closed.deps, acting, { slug: 'acme' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect(await closed.store.organizations.getBySlug('acme')).toBeNull();

    const { store, deps } = world({ limits: { organizationsPerUser: 1 } });
    await createOrganization(deps, acting, { slug: 'acme' });
    await expect(createOrganization(deps, acting, { slug: 'acme' })).rejects.toMatchObject({
      code: 'already_exists',
    });
    await expect(createOrganization(deps, acting, { slug: 'other' })).rejects.toMatchObject({
      code: 'limit_exceeded',
    });
    expect(await store.organizations.getBySlug('other')).toBeNull();
  });
});

describe('projects and environments', () => {
  it('record each change in the scope the caller names', async () => {
    const { deps, log } = world();
    const acting = await acme(deps);
    const project: Project = await createProject(deps, acting, { slug: 'api' });
    await expect(createProject(deps, acting, { slug: 'api' })).rejects.toMatchObject({
      code: 'already_exists',
    });
    const inProject = { ...acting, project };
    const environment: Environment = await createEnvironment(deps, inProject, { slug: 'prod' });
    expect(environment).toMatchObject({ require_strict_conflict_mode: false, approval_policy: null });
    const updated = await updateEnvironment(
      deps,
      { ...inProject, environment },
      {
        require_strict_conflict_mode: true,
      },
    );
    expect(updated.require_strict_conflict_mode).toBe(true);
    const changes = (await log(acting.organization.id)).slice(3);
    expect(changes.map((e) => [e.type, e.project ?? null, e.environment ?? null, e.data])).toEqual([
      ['project_created', 'api', null, { project: 'api' }],
      ['environment_created', 'api', 'prod', { require_strict_conflict_mode: false }],
      ['environment_updated', 'api', 'prod', { require_strict_conflict_mode: true }],
    ]);
  });

  it('name an approval policy in the update event only when the request gives one', async () => {
    const { deps, log } = world();
    const acting = await acme(deps);
    const project = await createProject(deps, acting, { slug: 'api' });
    const environment = await createEnvironment(deps, { ...acting, project }, { slug: 'prod' });
    const policy: ApprovalPolicy = {
      required_approvals: 1,
      approver_roles: ['owner', 'admin'],
      allow_self_approval: false,
      require_signed_approvals: false,
      bypass_roles: [],
      expires_after_hours: 24,
    };
    await updateEnvironment(deps, { ...acting, project, environment }, { approval_policy: policy });
    const [event] = (await log(acting.organization.id)).slice(-1);
    expect(event?.data).toEqual({
      require_strict_conflict_mode: false,
      approval_policy: { from: null, to: policy },
    });
  });

  it('show a member with grants only the projects granted', async () => {
    const { deps, store } = world();
    const acting = await acme(deps);
    await createProject(deps, acting, { slug: 'api' });
    await createProject(deps, acting, { slug: 'web' });
    const developer = {
      ...acting.principal,
      role: 'developer' as const,
      grants: [{ project: 'web', environments: [] }],
    };
    const slugs = async (principal: Principal) =>
      (await visibleProjects(store, { ...acting, principal })).map((p) => p.slug);
    expect(await slugs(acting.principal)).toEqual(['api', 'web']);
    expect(await slugs(developer)).toEqual(['web']);
  });
});
