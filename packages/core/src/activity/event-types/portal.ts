/** Event types of portal sessions (the dashboard embedded in the host app): never their token. */
import { z } from 'zod';
import { PORTAL_CAPABILITIES } from '../../model/portal-session.js';
import { entry, Time } from './shared.js';

export const portalEventTypes = {
  portal_session_created: entry(
    'A portal session was minted for a member (never its token)',
    z.strictObject({
      session_id: z.string(),
      user: z.string(),
      capabilities: z.array(z.enum(PORTAL_CAPABILITIES)),
      read_only: z.boolean(),
      origin: z.string().describe('the origin allowed to frame the session'),
      expires_at: Time,
    }),
  ),
  portal_session_revoked: entry(
    "Portal sessions were ended before they expired: one by DELETE, or every live one of a member by 'expire all'",
    z.strictObject({
      user: z.string(),
      session_ids: z.array(z.string()),
      expire_all: z.boolean(),
    }),
  ),
};
