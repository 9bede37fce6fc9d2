/** A portal session as the API shows it: everything but its token's hash. */
import type { PortalSession } from '../model/portal-session.js';

/** The session without its `token_hash` nor its organization's internal id. */
export function toPortalSessionView(session: PortalSession) {
  return {
    id: session.id,
    user: session.user,
    created_by: session.created_by,
    capabilities: session.capabilities,
    read_only: session.read_only,
    origin: session.origin,
    created_at: session.created_at,
    expires_at: session.expires_at,
    revoked_at: session.revoked_at,
  };
}
