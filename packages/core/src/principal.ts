/**
 * Who is calling and on what: authentication (built-in API tokens, or the host app's own) and the
 * organization, project and environment a path names, resolved within the caller's organization.
 */
import type { CoreOptions } from './core.js';
import { hashToken } from './crypto.js';
import { LatchkeyError } from './errors.js';
import { type CoreRequest, headerValue } from './http.js';
import type { Environment, Organization, Project } from './model.js';
import type { Principal } from './permissions.js';
import type { LatchkeyStore } from './store/types.js';

/** The principal of a request, or a 401 `unauthenticated`. */
export async function authenticate(
  request: CoreRequest,
  store: LatchkeyStore,
  hostAuthenticate: CoreOptions['authenticate'],
): Promise<Principal> {
  if (hostAuthenticate) {
    const identity = await hostAuthenticate(request);
    if (!identity) throw new LatchkeyError('unauthenticated', 'Authentication is required.');
    const org = await store.organizations.getBySlug(identity.organization);
    const member = org && (await store.members.get(org.id, identity.user));
    if (!org || !member) throw new LatchkeyError('unauthenticated', 'The credential is not valid.');
    return { organizationId: org.id, user: member.user, role: member.role, grants: member.grants };
  }
  const header = headerValue(request.headers, 'authorization');
  if (!header)
    throw new LatchkeyError('unauthenticated', 'Send an API token as "Authorization: Bearer <token>".');
  const match = /^Bearer +([A-Za-z0-9_-]{1,200})\s*$/i.exec(header);
  if (!match)
    throw new LatchkeyError('unauthenticated', 'The Authorization header must be "Bearer <token>".');
  const token = await store.tokens.findByHash(hashToken(match[1]!));
  if (!token || token.revoked_at !== null)
    throw new LatchkeyError('unauthenticated', 'The credential is not valid.');
  const member = await store.members.get(token.organization_id, token.user);
  if (!member) throw new LatchkeyError('unauthenticated', 'The credential is not valid.');
  return {
    organizationId: token.organization_id,
    user: member.user,
    role: member.role,
    grants: member.grants,
    tokenId: token.id,
  };
}

/** The scope a path names; another organization's resources answer 404 exactly like missing ones. */
export async function resolveScope(
  store: LatchkeyStore,
  principal: Principal,
  params: Record<string, string>,
): Promise<{
  organization: Organization;
  project: Project | undefined;
  environment: Environment | undefined;
}> {
  const slug = params['organization'];
  const organization = slug === undefined ? null : await store.organizations.getBySlug(slug);
  // Another organization's resources answer exactly like missing ones.
  if (!organization || organization.id !== principal.organizationId) throw notFound();
  let project: Project | undefined;
  let environment: Environment | undefined;
  if (params['project'] !== undefined) {
    project = (await store.projects.get(organization.id, params['project'])) ?? undefined;
    if (!project) throw notFound('project');
  }
  if (params['environment'] !== undefined && project) {
    environment = (await store.environments.get(project.id, params['environment'])) ?? undefined;
    if (!environment) throw notFound('environment');
  }
  return { organization, project, environment };
}

/** A 404 `not_found`; the message names the kind of resource, never whether it exists elsewhere. */
export function notFound(what = 'resource'): LatchkeyError {
  return new LatchkeyError('not_found', what === 'resource' ? 'Not found.' : `The ${what} was not found.`);
}
