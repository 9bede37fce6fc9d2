/**
 * Who is calling and on what: authentication (built-in API tokens, or the host app's own) and the
 * organization, project and environment a path names, resolved within the caller's organization.
 */

import { LatchkeyError, notFound } from '../errors/latchkey-error.js';
import { checkNotRestoring } from '../health/restoring.js';
import { type CoreRequest, headerValue } from '../model/core-request.js';
import type { Environment, Member, Organization, Project } from '../model/model.js';
import type { LatchkeyStore, RequestKeys, RequestRecords } from '../store/types.js';
import type { HostAuthenticate } from './host-identity.js';
import type { Principal } from './permissions.js';
import { hashToken } from './tokens.js';
import { authenticateWorkload } from './workload-principal.js';

/** Who is calling, and (for API tokens) the records the path names, fetched with the token. */
export interface Authenticated {
  principal: Principal;
  /** Fetched in the same step as the token: what {@link resolveScope} needs, without asking again. */
  records?: RequestRecords;
}

/**
 * The principal of a request, or a 401 `unauthenticated`. With an API token, the token, its member
 * and the records `params` name are read in one step (`store.requests.resolve`).
 */
export async function authenticate(
  request: CoreRequest,
  store: LatchkeyStore,
  hostAuthenticate: HostAuthenticate | undefined,
  params: Record<string, string>,
  prefetch?: Pick<RequestKeys, 'device'>,
  nowMs: number = Date.now(),
): Promise<Authenticated> {
  const bearer = /^Bearer +(lkw_[A-Za-z0-9_-]{1,200})\s*$/i.exec(
    headerValue(request.headers, 'authorization') ?? '',
  );
  if (bearer) {
    const keys = {
      organization: params['organization'],
      project: params['project'],
      environment: params['environment'],
    };
    return authenticateWorkload(bearer[1]!, store, { ...keys, ...prefetch }, nowMs);
  }
  if (hostAuthenticate) {
    const identity = await hostAuthenticate(request);
    if (!identity) throw new LatchkeyError('unauthenticated', 'Authentication is required.');
    const org = await store.organizations.getBySlug(identity.organization);
    if (org) checkNotRestoring(store, org.id);
    const member = org && (await store.members.get(org.id, identity.user));
    if (!org || !member) throw new LatchkeyError('unauthenticated', 'The credential is not valid.');
    return {
      principal: { organizationId: org.id, user: member.user, role: member.role, grants: member.grants },
    };
  }
  const header = headerValue(request.headers, 'authorization');
  if (!header)
    throw new LatchkeyError('unauthenticated', 'Send an API token as "Authorization: Bearer <token>".');
  const match = /^Bearer +([A-Za-z0-9_-]{1,200})\s*$/i.exec(header);
  if (!match)
    throw new LatchkeyError('unauthenticated', 'The Authorization header must be "Bearer <token>".');
  const records = await store.requests.resolve({
    tokenHash: hashToken(match[1]!),
    organization: params['organization'],
    project: params['project'],
    environment: params['environment'],
    ...prefetch,
  });
  const { token, member } = records;
  if (!token || token.revoked_at !== null)
    throw new LatchkeyError('unauthenticated', 'The credential is not valid.');
  // Before the member: a restore in steps has cleared the organization's members for a while.
  checkNotRestoring(store, token.organization_id);
  return {
    principal: {
      ...asMember(token.organization_id, member, 'The credential is not valid.'),
      tokenId: token.id,
    },
    records,
  };
}

/** The principal of `member` in `organizationId`, or a 401 `unauthenticated` with `message` when it is gone. */
export function asMember(organizationId: string, member: Member | null | undefined, message: string) {
  if (!member) throw new LatchkeyError('unauthenticated', message);
  return { organizationId, user: member.user, role: member.role, grants: member.grants };
}

/**
 * The scope a path names; another organization's resources answer 404 exactly like missing ones.
 * `records`, when given, were fetched for these `params` and are used instead of asking again.
 */
export async function resolveScope(
  store: LatchkeyStore,
  principal: Principal,
  params: Record<string, string>,
  records?: RequestRecords,
): Promise<{
  organization: Organization;
  project: Project | undefined;
  environment: Environment | undefined;
}> {
  const slug = params['organization'];
  // A path without an organization (POST /organizations) acts from the caller's own organization.
  const organization =
    slug === undefined
      ? await store.organizations.getById(principal.organizationId)
      : records
        ? records.organization
        : await store.organizations.getBySlug(slug);
  // Another organization's resources answer exactly like missing ones.
  if (!organization || organization.id !== principal.organizationId) throw notFound();
  let project: Project | undefined;
  let environment: Environment | undefined;
  if (params['project'] !== undefined) {
    project =
      (records ? records.project : await store.projects.get(organization.id, params['project'])) ?? undefined;
    if (!project) throw notFound('project');
  }
  if (params['environment'] !== undefined && project) {
    environment =
      (records ? records.environment : await store.environments.get(project.id, params['environment'])) ??
      undefined;
    if (!environment) throw notFound('environment');
  }
  return { organization, project, environment };
}
