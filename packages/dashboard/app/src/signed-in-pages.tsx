/** The signed-in app: Activity, Change requests or Settings, by route, each under the top bar. */
import { ActivityPage } from './activity-page.js';
import { ChangesPage } from './changes-page.js';
import { ROUTES, useRoute } from './router.js';
import { SettingsPage } from './settings-page.js';
import { TopBar } from './top-bar.js';
import type { Me } from './types.js';

/** The page of the current route. */
export function SignedInPages({ me, onSignOut }: { me: Me; onSignOut(): void }) {
  const route = useRoute();
  if (route !== ROUTES.activity && route !== ROUTES.changes) {
    return <SettingsPage me={me} onSignOut={onSignOut} />;
  }
  return (
    <>
      <TopBar me={me} onSignOut={onSignOut} />
      {route === ROUTES.activity ? <ActivityPage me={me} /> : <ChangesPage me={me} />}
    </>
  );
}
