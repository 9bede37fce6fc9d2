/** Portal sessions: the record behind one embedded dashboard's short-lived token, and its capabilities. */

/**
 * What a portal session may be given: read the audit webhooks and their metrics; manage them; see a
 * new signing secret once (creating a webhook, rotating its secret); read activity; export it; act
 * on change requests.
 */
export const PORTAL_CAPABILITIES = [
  'audit_webhooks:read',
  'audit_webhooks:manage',
  'audit_webhooks:secrets',
  'activity:read',
  'activity:export',
  'changes:review',
] as const;

/** One capability of a portal session. */
export type PortalCapability = (typeof PORTAL_CAPABILITIES)[number];

/** Prefix of a portal session's token (API tokens start `lk_`). */
export const PORTAL_TOKEN_PREFIX = 'lkp_';

/** A portal session as stored: its token only as the hex SHA-256 of its value. */
export interface PortalSession {
  /** `ps_…` */
  id: string;
  organization_id: string;
  /** The member the session acts as. */
  user: string;
  /** Who minted it: the caller of the route, or the user `core.createPortalSession` names. */
  created_by: string;
  token_hash: string;
  capabilities: PortalCapability[];
  read_only: boolean;
  /** The origin that frames the session's page (`https://host[:port]`, or loopback `http`). */
  origin: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** Whether `session` still admits its token at `nowMs` (milliseconds): not revoked, not expired. */
export function isLive(session: Pick<PortalSession, 'revoked_at' | 'expires_at'>, nowMs: number): boolean {
  return session.revoked_at === null && Date.parse(session.expires_at) > nowMs;
}
