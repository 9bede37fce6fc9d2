/**
 * Settings, with its tabs: General and Notifications (whose section is Audit Webhooks), each a
 * deep link.
 */
import { useEffect } from 'preact/hooks';
import { AuditWebhooksSection } from './audit-webhooks-section.js';
import { GeneralSection } from './general-section.js';
import { RouteLink } from './route-link.js';
import { navigate, ROUTES, useRoute } from './router.js';
import { SettingsTabs, tabOf } from './settings-tabs.js';
import { TopBar } from './top-bar.js';
import type { Me } from './types.js';

/** The signed-in page: the top bar and the tab of the current route. */
export function SettingsPage({ me, onSignOut }: { me: Me; onSignOut(): void }) {
  const route = useRoute();
  const tab = tabOf(route);

  // The dashboard opens on its one section; old or bare paths land there too.
  useEffect(() => {
    if (route === '/' || route === '/settings') navigate(ROUTES.auditWebhooks, true);
  }, [route]);

  useEffect(() => {
    document.title = `${tab === 'general' ? 'General' : 'Audit Webhooks'} · Settings · Latchkey`;
  }, [tab]);

  return (
    <>
      <TopBar me={me} onSignOut={onSignOut} />
      <main>
        <h1>Settings</h1>
        {tab === null ? (
          <p>
            This page does not exist. <RouteLink route={ROUTES.auditWebhooks}>Go to Audit Webhooks</RouteLink>
          </p>
        ) : (
          <>
            <SettingsTabs tab={tab} />
            <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} class="panel">
              {tab === 'general' ? <GeneralSection me={me} /> : <AuditWebhooksSection me={me} />}
            </div>
          </>
        )}
      </main>
    </>
  );
}
