/** A link to a route of the app, followed without reloading the page. */
import type { ComponentChildren } from 'preact';
import { href, onLinkClick } from './router.js';

/** `<a>` to `route` (inside the dashboard's mount point). */
export function RouteLink({
  route,
  class: className,
  current,
  children,
}: {
  route: string;
  class?: string;
  /** Marks the link as the page on screen (`aria-current="page"`). */
  current?: boolean;
  children: ComponentChildren;
}) {
  return (
    <a
      class={className}
      href={href(route)}
      aria-current={current ? 'page' : undefined}
      onClick={(e) => onLinkClick(e, route)}
    >
      {children}
    </a>
  );
}
