/** Reading portal sessions: the live ones a caller may see, and the session whose token calls. */
import type { Acting } from '../activity/acting.js';
import type { Principal } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { PortalSession } from '../model/portal-session.js';
import type { EndDeps } from './end-sessions.js';

/**
 * The organization's live sessions, oldest first, as far as the caller sees them: an owner sees all,
 * anyone else those it acts as or minted.
 */
export async function liveSessionsSeen(
  deps: Pick<EndDeps, 'store' | 'now'>,
  acting: Acting,
): Promise<PortalSession[]> {
  const at = new Date(deps.now()).toISOString();
  const live = await deps.store.portalSessions.listLive(acting.organization.id, at);
  const caller = acting.principal.user;
  return acting.principal.role === 'owner'
    ? live
    : live.filter((s) => s.user === caller || s.created_by === caller);
}

/** The session whose token `principal` called with; 404 `not_found` for any other credential. */
export async function callingSession(
  deps: Pick<EndDeps, 'store'>,
  principal: Pick<Principal, 'portal'>,
): Promise<PortalSession> {
  const grant = principal.portal;
  const session = grant && (await deps.store.portalSessions.get(grant.sessionId));
  if (!session) throw new LatchkeyError('not_found', 'This credential is not a portal session’s token.');
  return session;
}
