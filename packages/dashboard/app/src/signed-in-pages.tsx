/** The signed-in app: Activity or Settings, by route, each under the top bar. */
import { ActivityPage } from './activity-page.js';
import { ROUTES, useRoute } from './router.js';
import { SettingsPage } from './settings-page.js';
import { TopBar } from './top-bar.js';
import type { Me } from './types.js';

/** The page of the current route. */
export function SignedInPages({ me, onSignOut }: { me: Me; onSignOut(): void }) {
  const route = useRoute();
  if (route !== ROUTES.activity) return <SettingsPage me={me} onSignOut={onSignOut} />;
  return (
    <>
      <TopBar me={me} onSignOut={onSignOut} />
      <ActivityPage me={me} />
    </>
  );
}
