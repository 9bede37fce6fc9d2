/**
 * Settings, with its tabs: General and Notifications (whose section is Audit Webhooks), each a
 * deep link; tabs follow the ARIA tabs pattern (arrow keys, Home and End move between them).
 */
import { useEffect, useRef } from 'preact/hooks';
import { AuditWebhooksSection } from './audit-webhooks-section.js';
import { href, navigate, onLinkClick, ROUTES, useRoute } from './router.js';
import type { Me } from './types.js';

const TABS = [
  { id: 'general', label: 'General', route: ROUTES.general },
  { id: 'notifications', label: 'Notifications', route: ROUTES.notifications },
] as const;

function tabOf(route: string): (typeof TABS)[number]['id'] | null {
  if (route === '/' || route === '/settings' || route.startsWith(ROUTES.notifications))
    return 'notifications';
  if (route === ROUTES.general) return 'general';
  return null;
}

export function SettingsPage({ me, onSignOut }: { me: Me; onSignOut(): void }) {
  const route = useRoute();
  const tab = tabOf(route);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  // The dashboard opens on its one section; old or bare paths land there too.
  useEffect(() => {
    if (route === '/' || route === '/settings') navigate(ROUTES.auditWebhooks, true);
  }, [route]);

  useEffect(() => {
    document.title = `${tab === 'general' ? 'General' : 'Audit Webhooks'} · Settings · Latchkey`;
  }, [tab]);

  const onTabKey = (event: KeyboardEvent, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: TABS.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = (next + TABS.length) % TABS.length;
    tabRefs.current[target]?.focus();
    navigate(TABS[target]!.id === 'notifications' ? ROUTES.auditWebhooks : TABS[target]!.route);
  };

  return (
    <>
      <header class="top">
        <a
          class="brand"
          href={href(ROUTES.auditWebhooks)}
          onClick={(e) => onLinkClick(e, ROUTES.auditWebhooks)}
        >
          Latchkey
        </a>
        <span class="who">
          <span class="org">{me.organization.name || me.organization.slug || me.organization.id}</span>
          <span>
            {me.user} · <span class="role">{me.role}</span>
          </span>
        </span>
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main>
        <h1>Settings</h1>
        {tab === null ? (
          <p>
            This page does not exist.{' '}
            <a href={href(ROUTES.auditWebhooks)} onClick={(e) => onLinkClick(e, ROUTES.auditWebhooks)}>
              Go to Audit Webhooks
            </a>
          </p>
        ) : (
          <>
            <div role="tablist" aria-label="Settings" class="tabs">
              {TABS.map((t, index) => (
                <button
                  type="button"
                  role="tab"
                  id={`tab-${t.id}`}
                  key={t.id}
                  ref={(el) => {
                    tabRefs.current[index] = el;
                  }}
                  aria-selected={tab === t.id}
                  aria-controls={`panel-${t.id}`}
                  tabIndex={tab === t.id ? 0 : -1}
                  onClick={() => navigate(t.id === 'notifications' ? ROUTES.auditWebhooks : t.route)}
                  onKeyDown={(e) => onTabKey(e, index)}
                >
                  {t.label}
                </button>
              ))}
            </div>
            <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} class="panel">
              {tab === 'general' ? <General me={me} /> : <AuditWebhooksSection me={me} />}
            </div>
          </>
        )}
      </main>
    </>
  );
}

function General({ me }: { me: Me }) {
  return (
    <section aria-labelledby="general-heading">
      <h2 id="general-heading">General</h2>
      <dl class="facts">
        <dt>Organization</dt>
        <dd>{me.organization.name || me.organization.slug || me.organization.id}</dd>
        {me.organization.slug && (
          <>
            <dt>Slug</dt>
            <dd>
              <code>{me.organization.slug}</code>
            </dd>
          </>
        )}
        <dt>Signed in as</dt>
        <dd>{me.user}</dd>
        <dt>Role</dt>
        <dd>{me.role}</dd>
      </dl>
    </section>
  );
}
