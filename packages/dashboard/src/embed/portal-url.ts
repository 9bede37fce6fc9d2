/**
 * The element's two small rules: the frame's address (the portal URL with the theme in its query,
 * the token left in the fragment, where it reaches no server), and the messages the portal page
 * posts to its parent.
 */
import { themeParams } from './portal-theme.js';

/** What the portal page posts to the page that frames it. */
export type PortalMessage = { type: 'latchkey:resize'; height: number } | { type: 'latchkey:expired' };

/**
 * The frame's URL for `url` (`…/dashboard/embed#<token>`), with `theme` and the host's properties
 * in its query; null when `url` is not an http(s) URL.
 */
export function portalFrameUrl(
  url: string,
  theme: string | null,
  style: Pick<CSSStyleDeclaration, 'getPropertyValue'>,
): URL | null {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return null;
  for (const [name, value] of themeParams(theme, style)) target.searchParams.set(name, value);
  return target;
}

/** The message `data` is, or null when it is not one of the portal's. */
export function portalMessage(data: unknown): PortalMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, height } = data as { type?: unknown; height?: unknown };
  if (type === 'latchkey:expired') return { type };
  if (type === 'latchkey:resize' && typeof height === 'number' && Number.isFinite(height))
    return { type, height: Math.ceil(height) };
  return null;
}
