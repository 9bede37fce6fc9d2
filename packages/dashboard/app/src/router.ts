/**
 * The app's routes live under the mount point the server put in the page
 * (`/dashboard/settings/notifications/audit-webhooks` and its neighbours); links change the path
 * with the History API, so every screen is a deep link and the browser's back button works.
 */
import { useEffect, useState } from 'preact/hooks';

const metaBase =
  document.querySelector<HTMLMetaElement>('meta[name="latchkey-base"]')?.content ?? '/dashboard/';
/** The dashboard's mount point, without a trailing slash. */
const BASE = metaBase.startsWith('/__') ? '/dashboard' : metaBase.replace(/\/$/, '');

export const ROUTES = {
  activity: '/activity',
  changes: '/changes',
  general: '/settings/general',
  notifications: '/settings/notifications',
  auditWebhooks: '/settings/notifications/audit-webhooks',
} as const;

/** The path inside the dashboard (`/settings/...`). */
export function currentRoute(): string {
  const path = location.pathname;
  const inner = path.startsWith(BASE) ? path.slice(BASE.length) : path;
  return inner.replace(/\/+$/, '') || '/';
}

export function href(route: string): string {
  return `${BASE}${route}`;
}

export function navigate(route: string, replace = false): void {
  if (replace) history.replaceState(null, '', href(route));
  else history.pushState(null, '', href(route));
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The current route, kept in step with navigation. */
export function useRoute(): string {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return route;
}

/** Follows a link inside the app without reloading the page (new tabs and modifiers still work). */
export function onLinkClick(event: MouseEvent, route: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(route);
}
