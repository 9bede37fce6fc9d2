/** What the portal-session tests share: minting a session through the API and reading its token. */
import { expect } from 'vitest';
import { ADMIN, type ConformanceContext } from '../harness/context.js';
import { PORTAL_ORIGIN } from '../members/role-table-portal-rows.js';

/** The portal sessions of `acme`. */
export const SESSIONS = '/api/v2/organizations/acme/portal-sessions';

/** A minted session: its id, its page's URL and the token read from the URL's fragment. */
export interface Minted {
  id: string;
  url: string;
  token: string;
  expiresAt: string;
}

/** Mints a session through the API (201 expected), `origin` defaulting to the allowed one. */
export async function mint(
  ctx: ConformanceContext,
  body: Record<string, unknown>,
  token: string = ADMIN,
  path: string = SESSIONS,
): Promise<Minted> {
  const answer = await ctx.send('POST', path, { origin: PORTAL_ORIGIN, ...body }, token);
  expect(answer.status, answer.text).toBe(201);
  const json = answer.json as { session_id: string; url: string; expires_at: string };
  return {
    id: json.session_id,
    url: json.url,
    token: json.url.slice(json.url.indexOf('#') + 1),
    expiresAt: json.expires_at,
  };
}

/** The status of `GET /portal-session` with a portal token. */
export async function sessionStatus(ctx: ConformanceContext, token: string): Promise<number> {
  return (await ctx.send('GET', '/api/v2/portal-session', undefined, token)).status;
}
