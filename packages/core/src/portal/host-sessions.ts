/**
 * Portal sessions for the host app's own server code: minting one from the host's session of its
 * user, ending a user's sessions (at sign-out, say), and the origin that may frame a session's page.
 */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Organization } from '../model/model.js';
import type { PortalCapability } from '../model/portal-session.js';
import type { EndDeps } from './end-sessions.js';
import { expireAllPortalSessions } from './end-sessions.js';
import { type MintDeps, type MintedPortalSession, mintPortalSession } from './mint-session.js';

/** What `core.createPortalSession` takes: the API's body, with the organization and user named. */
export interface CreatePortalSessionInput {
  /** The organization's slug. */
  organization: string;
  /** The member the session acts as. */
  user: string;
  capabilities: readonly PortalCapability[];
  /** 60 to 86,400. Default 3,600. */
  expires_in_seconds?: number;
  /** Refuse every write. Default false. */
  read_only?: boolean;
  /** The origin of the page that frames it: one of the core option `portal.allowedOrigins`. */
  origin: string;
  /** Who mints it, as recorded in `portal_session_created`. Default `user`. */
  created_by?: string;
}

async function organizationOf(deps: EndDeps, slug: string): Promise<Organization> {
  const organization = await deps.store.organizations.getBySlug(slug);
  if (!organization) throw new LatchkeyError('not_found', 'The organization was not found.');
  return organization;
}

/** Mints a session as the route does, without a caller to rank against: the host vouches for it. */
export async function mintForHost(
  deps: MintDeps,
  input: CreatePortalSessionInput,
): Promise<MintedPortalSession> {
  return mintPortalSession(deps, await organizationOf(deps, input.organization), {
    user: input.user,
    createdBy: input.created_by ?? input.user,
    capabilities: input.capabilities,
    expiresInSeconds: input.expires_in_seconds,
    readOnly: input.read_only,
    origin: input.origin,
  });
}

/** Ends every live session of `user`; the ids ended, oldest first. */
export async function expireForHost(
  deps: EndDeps,
  input: { organization: string; user: string },
): Promise<string[]> {
  return expireAllPortalSessions(
    deps,
    await organizationOf(deps, input.organization),
    input.user,
    input.user,
  );
}

/**
 * The origin that may frame the page of session `id`: its own origin, while the host still allows
 * it; null for an unknown id or an origin no longer allowed. An ended session keeps its origin, so
 * its page can still show that it ended and tell the host page.
 */
export async function frameAncestorOf(
  deps: Pick<MintDeps, 'store' | 'portal'>,
  id: string,
): Promise<string | null> {
  if (!/^ps_[A-Za-z0-9]{8,64}$/.test(id)) return null;
  const session = await deps.store.portalSessions.get(id);
  return session && deps.portal.allowedOrigins.has(session.origin) ? session.origin : null;
}
