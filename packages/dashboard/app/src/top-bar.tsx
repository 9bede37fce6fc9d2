/** The bar above every page: the brand, who is signed in, and sign-out. */
import { organizationName } from './organization-name.js';
import { RouteLink } from './route-link.js';
import { ROUTES } from './router.js';
import type { Me } from './types.js';

/** The header of the signed-in pages. */
export function TopBar({ me, onSignOut }: { me: Me; onSignOut(): void }) {
  return (
    <header class="top">
      <RouteLink class="brand" route={ROUTES.auditWebhooks}>
        Latchkey
      </RouteLink>
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
