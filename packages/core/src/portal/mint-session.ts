/**
 * Minting a portal session: the origin must be one the host allows, the member must hold what each
 * capability stands for, the organization stays within its bound, and the session and its
 * `portal_session_created` event are written together. The token leaves only in the URL's fragment.
 */
import { eventDraft } from '../activity/event-types/index.js';
import { recordChange } from '../activity/record-change.js';
import { ROLE_PERMISSIONS } from '../auth/permissions.js';
import { generatePortalToken, hashPortalToken } from '../auth/portal-principal.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { type Limits, limitExceeded } from '../model/limits.js';
import type { Organization } from '../model/model.js';
import { PORTAL_CAPABILITIES, type PortalCapability, type PortalSession } from '../model/portal-session.js';
import { PORTAL_SESSION_SECONDS } from '../schemas/portal-sessions.js';
import { CAPABILITY_PERMISSION } from './capabilities.js';
import type { EndDeps } from './end-sessions.js';
import { type PortalSettings, toOrigin } from './settings.js';

/** What a session is minted with. */
export interface PortalSessionRequest {
  /** The member the session acts as. */
  user: string;
  /** Who mints it (recorded as the event's actor). */
  createdBy: string;
  capabilities: readonly PortalCapability[];
  /** 60 to 86,400; default 3,600. */
  expiresInSeconds?: number | undefined;
  readOnly?: boolean | undefined;
  origin: string;
}

/** A minted session: its id, the page's URL with the token in its fragment, and when it ends. */
export interface MintedPortalSession {
  session_id: string;
  url: string;
  expires_at: string;
}

/** What minting needs of the core (a part of its dependencies). */
export interface MintDeps extends EndDeps {
  limits: Pick<Limits, 'portalSessionsPerOrganization'>;
  portal: PortalSettings;
}

const invalid = (path: string, message: string, text: string) =>
  new LatchkeyError('invalid_request', text, { details: [{ path, message }] });

/** Mints a session of `organization`; a 400, 403 or 409 writes nothing. */
export async function mintPortalSession(
  deps: MintDeps,
  organization: Organization,
  input: PortalSessionRequest,
): Promise<MintedPortalSession> {
  const origin = toOrigin(input.origin);
  if (!origin || !deps.portal.allowedOrigins.has(origin))
    throw invalid(
      'body.origin',
      'not an allowed origin',
      'The origin is not one this server allows to frame it.',
    );
  const seconds = input.expiresInSeconds ?? PORTAL_SESSION_SECONDS.default;
  if (
    !Number.isInteger(seconds) ||
    seconds < PORTAL_SESSION_SECONDS.min ||
    seconds > PORTAL_SESSION_SECONDS.max
  )
    throw invalid('body.expires_in_seconds', 'from 60 to 86400', 'expires_in_seconds must be 60 to 86400.');
  const capabilities = PORTAL_CAPABILITIES.filter((c) => input.capabilities.includes(c));
  if (capabilities.length === 0 || capabilities.length !== new Set(input.capabilities).size)
    throw invalid('body.capabilities', 'one or more known capabilities', 'Name at least one capability.');
  const member = await deps.store.members.get(organization.id, input.user);
  if (!member) throw invalid('body.user', 'not a member', 'The user is not a member of this organization.');
  for (const capability of capabilities) {
    const permission = CAPABILITY_PERMISSION[capability];
    if (!ROLE_PERMISSIONS[member.role].includes(permission))
      throw new LatchkeyError(
        'forbidden',
        `The member's role (${member.role}) does not allow ${capability}.`,
      );
  }
  const token = generatePortalToken();
  const nowMs = deps.now();
  const at = new Date(nowMs).toISOString();
  const session: PortalSession = {
    id: deps.ids('ps'),
    organization_id: organization.id,
    user: member.user,
    created_by: input.createdBy,
    token_hash: hashPortalToken(token),
    capabilities,
    read_only: input.readOnly ?? false,
    origin,
    created_at: at,
    expires_at: new Date(nowMs + seconds * 1000).toISOString(),
    revoked_at: null,
  };
  await recordChange(
    deps.store,
    organization.id,
    async (tx) => {
      const max = deps.limits.portalSessionsPerOrganization;
      if ((await tx.portalSessions.create(session, max, at)) === 'limit')
        throw limitExceeded(
          `The organization already has ${max} live portal sessions (limits.portalSessionsPerOrganization).`,
        );
    },
    () => createdEvent(deps, organization, session, at),
  );
  const url = `${deps.portal.embedUrl}?session=${session.id}#${token}`;
  return { session_id: session.id, url, expires_at: session.expires_at };
}

function createdEvent(deps: MintDeps, organization: Organization, session: PortalSession, at: string) {
  return eventDraft({
    id: deps.ids('evt'),
    occurred_at: at,
    organization: organization.slug,
    actor: { type: 'user', id: session.created_by },
    type: 'portal_session_created',
    data: {
      session_id: session.id,
      user: session.user,
      capabilities: session.capabilities,
      read_only: session.read_only,
      origin: session.origin,
      expires_at: session.expires_at,
    },
  });
}
