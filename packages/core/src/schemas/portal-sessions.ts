/** The schemas of portal sessions: minting one, listing, ending, and the session a portal token reads. */
import { z } from 'zod';
import { PORTAL_CAPABILITIES } from '../model/portal-session.js';
import { UserSchema } from './api.js';
import { text } from './text.js';

/** The shortest and longest life of a portal session, in seconds, and its default. */
export const PORTAL_SESSION_SECONDS = { min: 60, max: 86_400, default: 3_600 } as const;

export const PortalCapabilitySchema = z.enum(PORTAL_CAPABILITIES);

export const CreatePortalSessionBody = z.strictObject({
  user: UserSchema.optional().describe('The member the session acts as. Default: the caller.'),
  capabilities: z.array(PortalCapabilitySchema).min(1).max(PORTAL_CAPABILITIES.length),
  expires_in_seconds: z
    .int()
    .min(PORTAL_SESSION_SECONDS.min)
    .max(PORTAL_SESSION_SECONDS.max)
    .optional()
    .describe('Default 3600.'),
  read_only: z.boolean().optional().describe('Refuse every write (403 forbidden). Default false.'),
  origin: text()
    .min(1)
    .max(300)
    .describe(
      'The origin of the page that frames the session; one of the core option portal.allowedOrigins.',
    ),
});

export const CreatedPortalSessionResponse = z.strictObject({
  session_id: z.string(),
  url: z.string().describe('The embedded page; the token is in its fragment only, shown once'),
  expires_at: z.string(),
});

export const PortalSessionResponse = z.strictObject({
  id: z.string(),
  user: z.string(),
  created_by: z.string(),
  capabilities: z.array(PortalCapabilitySchema),
  read_only: z.boolean(),
  origin: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
});

export const ExpireAllPortalSessionsBody = z.strictObject({
  user: UserSchema.optional().describe('Whose sessions end. Default: the caller.'),
});

export const ExpiredPortalSessionsResponse = z.strictObject({
  user: z.string(),
  session_ids: z.array(z.string()),
});

export const CurrentPortalSessionResponse = z.strictObject({
  session_id: z.string(),
  organization: z.strictObject({ id: z.string(), slug: z.string(), name: z.string() }),
  user: z.string(),
  capabilities: z.array(PortalCapabilitySchema),
  read_only: z.boolean(),
  origin: z.string(),
  expires_at: z.string(),
});
