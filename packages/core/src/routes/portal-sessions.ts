/**
 * Portal sessions: minted for a member (the URL carrying the token in its fragment, shown once),
 * listed without their tokens, ended one by one or all of a member's at once; and the session a
 * portal token itself reads (`GET /portal-session`).
 */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { RouteContext } from '../http/router.js';
import { endPortalSession, expireAllPortalSessions } from '../portal/end-sessions.js';
import { mintPortalSession } from '../portal/mint-session.js';
import { toPortalSessionView } from '../portal/session-view.js';
import { listOf } from '../schemas/list.js';
import {
  CreatedPortalSessionResponse,
  CreatePortalSessionBody,
  CurrentPortalSessionResponse,
  ExpireAllPortalSessionsBody,
  ExpiredPortalSessionsResponse,
  PortalSessionResponse,
} from '../schemas/portal-sessions.js';
import { answers, error } from './docs.js';
import { refuseAbove } from './guards.js';
import { ORGANIZATION } from './paths.js';
import { routeGroup } from './route-group.js';

const SESSIONS = `${ORGANIZATION}/portal-sessions`;

/** The routes of portal sessions: tagged Portal sessions, for holders of portal_sessions:manage. */
const sessionRoute = routeGroup({ tag: 'Portal sessions', permission: 'portal_sessions:manage' });

/** The member `user` names, within the caller's reach; a 400 when not a member. */
async function reachableMember(ctx: RouteContext, user: string, what: string) {
  const member = await ctx.deps.store.members.get(ctx.organization.id, user);
  if (!member) {
    throw new LatchkeyError('invalid_request', 'The user is not a member of this organization.', {
      details: [{ path: 'body.user', message: 'not a member' }],
    });
  }
  // A session acts with its member's role: minting or ending one above the caller's is refused.
  refuseAbove(ctx, member.role, what);
  return member;
}

export const portalSessionRoutes = [
  sessionRoute('POST', SESSIONS, {
    operationId: 'createPortalSession',
    summary:
      'Mint a portal session for a member: the embedded page’s URL, its token in the fragment, shown once.',
    body: CreatePortalSessionBody,
    responses: answers(
      201,
      'Created; the token is only in `url`’s fragment, shown only here',
      CreatedPortalSessionResponse,
      {
        403: error(
          "forbidden: the role lacks the permission, the member ranks above the caller, or the member's role does not allow a capability",
        ),
        409: error(
          'limit_exceeded: the organization holds limits.portalSessionsPerOrganization live sessions',
        ),
      },
    ),
    async handler(ctx) {
      const user = ctx.body.user ?? ctx.principal.user;
      await reachableMember(ctx, user, 'mint a portal session for a member whose role is above yours');
      const minted = await mintPortalSession(ctx.deps, ctx.organization, {
        user,
        createdBy: ctx.principal.user,
        capabilities: ctx.body.capabilities,
        expiresInSeconds: ctx.body.expires_in_seconds,
        readOnly: ctx.body.read_only,
        origin: ctx.body.origin,
      });
      return { status: 201, body: minted, headers: { 'cache-control': 'no-store' } };
    },
  }),

  sessionRoute('GET', SESSIONS, {
    operationId: 'listPortalSessions',
    summary:
      'List live portal sessions (never their tokens): an owner sees all, others those they act as or minted.',
    responses: answers(
      200,
      'Live portal sessions, oldest first',
      listOf('portal_sessions', PortalSessionResponse),
    ),
    async handler(ctx) {
      const at = new Date(ctx.deps.now()).toISOString();
      const live = await ctx.deps.store.portalSessions.listLive(ctx.organization.id, at);
      const caller = ctx.principal.user;
      const seen =
        ctx.principal.role === 'owner'
          ? live
          : live.filter((s) => s.user === caller || s.created_by === caller);
      return { status: 200, body: { portal_sessions: seen.map(toPortalSessionView) } };
    },
  }),

  sessionRoute('DELETE', `${SESSIONS}/{portalSession}`, {
    operationId: 'deletePortalSession',
    summary: 'End a portal session at once: its token is refused from the next request on.',
    responses: answers(200, 'Ended', PortalSessionResponse, {
      404: error('not_found: no live portal session with this id in your organization'),
    }),
    async handler(ctx) {
      const { store } = ctx.deps;
      const id = ctx.params['portalSession']!;
      const session = await store.portalSessions.get(id);
      if (!session || session.organization_id !== ctx.organization.id)
        throw new LatchkeyError('not_found', 'No live portal session has this id.');
      const member = await store.members.get(ctx.organization.id, session.user);
      if (member)
        refuseAbove(ctx, member.role, 'end the portal session of a member whose role is above yours');
      const ended = await endPortalSession(ctx.deps, ctx.organization, id, ctx.principal.user);
      return { status: 200, body: toPortalSessionView(ended) };
    },
  }),

  sessionRoute('POST', `${SESSIONS}/expire-all`, {
    operationId: 'expireAllPortalSessions',
    summary: "End every live portal session of a member (default the caller's own) at once.",
    body: ExpireAllPortalSessionsBody,
    responses: answers(
      200,
      'Ended; the ids of the sessions ended, oldest first',
      ExpiredPortalSessionsResponse,
    ),
    async handler(ctx) {
      const user = ctx.body.user ?? ctx.principal.user;
      await reachableMember(ctx, user, 'end the portal sessions of a member whose role is above yours');
      const ids = await expireAllPortalSessions(ctx.deps, ctx.organization, user, ctx.principal.user);
      return { status: 200, body: { user, session_ids: ids } };
    },
  }),

  routeGroup({ tag: 'Portal sessions' })('GET', '/portal-session', {
    operationId: 'getCurrentPortalSession',
    summary: 'The portal session whose token calls: its organization, member, capabilities and expiry.',
    responses: answers(200, 'The calling session', CurrentPortalSessionResponse, {
      404: error('not_found: the credential is not a portal session’s token'),
    }),
    async handler(ctx) {
      const grant = ctx.principal.portal;
      const session = grant && (await ctx.deps.store.portalSessions.get(grant.sessionId));
      if (!session) throw new LatchkeyError('not_found', 'This credential is not a portal session’s token.');
      const { id, slug, name } = ctx.organization;
      return {
        status: 200,
        body: {
          session_id: session.id,
          organization: { id, slug, name },
          user: session.user,
          capabilities: session.capabilities,
          read_only: session.read_only,
          origin: session.origin,
          expires_at: session.expires_at,
        },
      };
    },
  }),
];
