/**
 * Who may frame the embedded page (`{basePath}/embed?session=ps_…`): the origin its portal session
 * names, while the host still allows it, as the core answers (`core.portalFrameAncestor`); anything
 * else (no session, an unknown one, no answer) is `frame-ancestors 'none'`, as for every other page.
 * The token stays in the fragment, which the server never sees: the session's id is enough here.
 */

/** In the page's text, stands for the origin that frames it (the embedded page posts to it). */
export const PORTAL_ORIGIN_PLACEHOLDER = '__LATCHKEY_PORTAL_ORIGIN__';

/** The origin allowed to frame the page of portal session `sessionId`, or null for none. */
export type FrameAncestor = (sessionId: string) => Promise<string | null>;

const SESSION_ID = /^ps_[A-Za-z0-9_-]{1,100}$/;
// What the core answers is an origin it normalized; anything else never reaches the header.
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-fA-F:.]+\](:\d{1,5})?$/;

/** The `frame-ancestors` source of the embedded page at `url` (its query names the session). */
export async function embedFrameAncestors(url: string, frameAncestor: FrameAncestor | undefined) {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const session = new URLSearchParams(query).get('session');
  if (!frameAncestor || !session || !SESSION_ID.test(session)) return "'none'";
  const origin = await frameAncestor(session).catch(() => null);
  return origin && ORIGIN.test(origin) ? origin : "'none'";
}
