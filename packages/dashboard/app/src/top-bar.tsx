/** The bar above every page: the brand, who is signed in, and sign-out. */
import { organizationName } from './organization-name.js';
import { RouteLink } from './route-link.js';
import { ROUTES, useRoute } from './router.js';
import type { Me } from './types.js';

/** The header of the signed-in pages, with the top-level pages: Activity, Change requests and Settings. */
export function TopBar({ me, onSignOut }: { me: Me; onSignOut(): void }) {
  const route = useRoute();
  const onActivity = route === ROUTES.activity;
  const onChanges = route === ROUTES.changes;
  return (
    <header class="top">
      <RouteLink class="brand" route={ROUTES.auditWebhooks}>
        Latchkey
      </RouteLink>
      <nav class="pages" aria-label="Pages">
        <RouteLink route={ROUTES.activity} current={onActivity}>
          Activity
        </RouteLink>
        <RouteLink route={ROUTES.changes} current={onChanges}>
          Change requests
        </RouteLink>
        <RouteLink route={ROUTES.auditWebhooks} current={!onActivity && !onChanges}>
          Settings
        </RouteLink>
      </nav>
      <span class="who">
        <span class="org">{organizationName(me)}</span>
        <span>
          {me.user} · <span class="role">{me.role}</span>
        </span>
      </span>
      <button type="button" class="secondary" onClick={onSignOut}>
        Sign out
      </button>
    </header>
  );
}
