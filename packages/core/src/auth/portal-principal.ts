/**
 * Authentication by a portal session's token (`Authorization: Bearer lkp_…`): the session must be
 * live, and its member still a member; the principal is the member, bounded by the session.
 */
import { createHash, randomBytes } from 'node:crypto';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { checkNotRestoring } from '../health/restoring.js';
import { type CoreRequest, headerValue } from '../model/core-request.js';
import { isLive, PORTAL_TOKEN_PREFIX } from '../model/portal-session.js';
import type { LatchkeyStore } from '../store/types.js';
import { type Authenticated, asMember } from './principal.js';

/** A new portal session token: `lkp_` + 32 random bytes, base64url. */
export function generatePortalToken(): string {
  return PORTAL_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** Hex SHA-256 of a portal token: the only form in which it is stored. */
export function hashPortalToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The portal token of the request's `Authorization: Bearer` header, or null when it sends none. */
export function portalBearer(request: CoreRequest): string | null {
  const header = headerValue(request.headers, 'authorization');
  const match = header && /^Bearer +(lkp_[A-Za-z0-9_-]{1,200})\s*$/i.exec(header);
  return match ? match[1]! : null;
}

const ENDED = 'The portal session has ended or is not valid.';

/** The principal of a portal token at `nowMs`, or a 401 `unauthenticated` (unknown, ended, member gone). */
export async function authenticatePortal(
  store: LatchkeyStore,
  token: string,
  nowMs: number,
): Promise<Authenticated> {
  const session = await store.portalSessions.findByHash(hashPortalToken(token));
  if (!session || !isLive(session, nowMs)) throw new LatchkeyError('unauthenticated', ENDED);
  checkNotRestoring(store, session.organization_id);
  const member = await store.members.get(session.organization_id, session.user);
  return {
    principal: {
      ...asMember(session.organization_id, member, ENDED),
      portal: { sessionId: session.id, capabilities: session.capabilities, readOnly: session.read_only },
    },
  };
}
