/**
 * Portal sessions: minted for a member (the URL carrying the token in its fragment, shown once),
 * listed without their tokens, ended one by one or all of a member's at once; and the session a
 * portal token itself reads (`GET /portal-session`).
 */
import { endAsCaller, expireAllAsCaller, mintAsCaller } from '../portal/caller-sessions.js';
import { callingSession, liveSessionsSeen } from '../portal/session-reads.js';
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
import { ORGANIZATION } from './paths.js';
import { routeGroup } from './route-group.js';

const SESSIONS = `${ORGANIZATION}/portal-sessions`;

/** The routes of portal sessions: tagged Portal sessions, for holders of portal_sessions:manage. */
const sessionRoute = routeGroup({ tag: 'Portal sessions', permission: 'portal_sessions:manage' });

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
      const minted = await mintAsCaller(ctx.deps, ctx, ctx.body);
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
      const seen = await liveSessionsSeen(ctx.deps, ctx);
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
      const ended = await endAsCaller(ctx.deps, ctx, ctx.params['portalSession']!);
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
      return { status: 200, body: await expireAllAsCaller(ctx.deps, ctx, ctx.body.user) };
    },
  }),

  routeGroup({ tag: 'Portal sessions' })('GET', '/portal-session', {
    operationId: 'getCurrentPortalSession',
    summary: 'The portal session whose token calls: its organization, member, capabilities and expiry.',
    responses: answers(200, 'The calling session', CurrentPortalSessionResponse, {
      404: error('not_found: the credential is not a portal session’s token'),
    }),
    async handler(ctx) {
      const session = await callingSession(ctx.deps, ctx.principal);
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
