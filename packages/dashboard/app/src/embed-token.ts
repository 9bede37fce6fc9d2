/**
 * The embedded page's token: read from the URL's fragment once (the fragment never reaches a
 * server, a log or a referrer), then removed from the address bar at once, and kept in this
 * module's memory only, never in any storage: a reload of the frame has no token and shows the
 * session as ended, so the host mints a fresh URL.
 */
const TOKEN = /^lkp_[A-Za-z0-9_-]{1,200}$/;

/** The fragment's portal token, or null; the fragment is gone from the address bar either way. */
export function takeFragmentToken(): string | null {
  const fragment = location.hash.slice(1);
  if (location.hash) history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  return TOKEN.test(fragment) ? fragment : null;
}
