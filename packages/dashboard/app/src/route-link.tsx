/** A link to a route of the app, followed without reloading the page. */
import type { ComponentChildren } from 'preact';
import { href, onLinkClick } from './router.js';

/** `<a>` to `route` (inside the dashboard's mount point). */
export function RouteLink({
  route,
  class: className,
  children,
}: {
  route: string;
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <a class={className} href={href(route)} onClick={(e) => onLinkClick(e, route)}>
      {children}
    </a>
  );
}
