/**
 * The core option `portal`: which origins may frame a portal session, and where the embedded page
 * lives, so that a session's `url` can be written.
 */

/** The core option `portal`. */
export interface PortalOptions {
  /**
   * The origins a portal session may name as the page that frames it (`https://host[:port]`, or an
   * `http` origin on a loopback host): the examples read `LATCHKEY_PORTAL_ORIGINS`, separated by
   * commas. Default none: no session can be minted.
   */
  allowedOrigins?: readonly string[];
  /**
   * The public base URL of this server (`https://secrets.example.com`), which each session's `url`
   * starts with; the examples read `LATCHKEY_PUBLIC_URL`. Default none: the `url` is a path.
   */
  publicUrl?: string;
  /** Where the dashboard is mounted (its `basePath`). Default `/dashboard`. */
  dashboardPath?: string;
}

/** The resolved option. */
export interface PortalSettings {
  /** Each allowed origin, normalized. */
  allowedOrigins: ReadonlySet<string>;
  /** The embedded page's URL, without the session's query and fragment. */
  embedUrl: string;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * The origin `text` names, normalized (`https://example.com`), or null unless it is exactly an
 * origin: an `https` one, or `http` on a loopback host; no path, query, fragment nor credentials.
 */
export function toOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return null;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) return null;
  return url.origin;
}

/** Resolves the option; a TypeError names an origin or URL that is not one. */
export function toPortalSettings(option: PortalOptions = {}): PortalSettings {
  const allowedOrigins = new Set<string>();
  for (const text of option.allowedOrigins ?? []) {
    const origin = toOrigin(text.trim());
    if (!origin) {
      throw new TypeError(
        `portal.allowedOrigins: "${text}" is not an https origin (or an http origin on a loopback host)`,
      );
    }
    allowedOrigins.add(origin);
  }
  const base = (option.publicUrl ?? '').replace(/\/+$/, '');
  if (base && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(base))
    throw new TypeError(`portal.publicUrl: "${option.publicUrl}" is not an http(s) URL`);
  const path = (option.dashboardPath ?? '/dashboard').replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(path))
    throw new TypeError(`portal.dashboardPath: "${option.dashboardPath}" is not a path`);
  return { allowedOrigins, embedUrl: `${base}${path}/embed` };
}
