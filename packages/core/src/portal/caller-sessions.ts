/**
 * Portal sessions as a member of the API mints and ends them: the session's member must be one of
 * the organization's, and a caller never mints or ends a session for a member whose role ranks above
 * its own (a session acts with its member's role).
 */
import type { Acting } from '../activity/acting.js';
import { refuseAbove } from '../auth/refuse-above.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Member } from '../model/model.js';
import type { PortalCapability, PortalSession } from '../model/portal-session.js';
import type { LatchkeyStore } from '../store/types.js';
import { type EndDeps, endPortalSession, expireAllPortalSessions } from './end-sessions.js';
import { type MintDeps, type MintedPortalSession, mintPortalSession } from './mint-session.js';

/** A mint request, as the API validated it (`CreatePortalSessionBody`). */
export interface MintInput {
  /** The member the session acts as; absent: the caller. */
  user?: string | undefined;
  capabilities: readonly PortalCapability[];
  expires_in_seconds?: number | undefined;
  read_only?: boolean | undefined;
  origin: string;
}

/** The member sessions of `user` were ended for, and the ids of those ended, oldest first. */
export interface ExpiredSessions {
  user: string;
  session_ids: string[];
}

/** The member `user` names, within the caller's reach; a 400 when not a member. */
async function reachableMember(
  store: LatchkeyStore,
  acting: Acting,
  user: string,
  what: string,
): Promise<Member> {
  const member = await store.members.get(acting.organization.id, user);
  if (!member) {
    throw new LatchkeyError('invalid_request', 'The user is not a member of this organization.', {
      details: [{ path: 'body.user', message: 'not a member' }],
    });
  }
  refuseAbove(acting.principal, member.role, what);
  return member;
}

/** Mints a session for `input.user` (default the caller), minted by the caller; see {@link mintPortalSession}. */
export async function mintAsCaller(
  deps: MintDeps,
  acting: Acting,
  input: MintInput,
): Promise<MintedPortalSession> {
  const user = input.user ?? acting.principal.user;
  await reachableMember(
    deps.store,
    acting,
    user,
    'mint a portal session for a member whose role is above yours',
  );
  return mintPortalSession(deps, acting.organization, {
    user,
    createdBy: acting.principal.user,
    capabilities: input.capabilities,
    expiresInSeconds: input.expires_in_seconds,
    readOnly: input.read_only,
    origin: input.origin,
  });
}

/** Ends the live session `id` of the caller's organization; 404 when there is none, 403 above the caller. */
export async function endAsCaller(deps: EndDeps, acting: Acting, id: string): Promise<PortalSession> {
  const { organization } = acting;
  const session = await deps.store.portalSessions.get(id);
  if (!session || session.organization_id !== organization.id)
    throw new LatchkeyError('not_found', 'No live portal session has this id.');
  const member = await deps.store.members.get(organization.id, session.user);
  if (member)
    refuseAbove(
      acting.principal,
      member.role,
      'end the portal session of a member whose role is above yours',
    );
  return endPortalSession(deps, organization, id, acting.principal.user);
}

/** Ends every live session of `user` (default the caller's own), acted by the caller. */
export async function expireAllAsCaller(
  deps: EndDeps,
  acting: Acting,
  user: string = acting.principal.user,
): Promise<ExpiredSessions> {
  await reachableMember(
    deps.store,
    acting,
    user,
    'end the portal sessions of a member whose role is above yours',
  );
  const ids = await expireAllPortalSessions(deps, acting.organization, user, acting.principal.user);
  return { user, session_ids: ids };
}
