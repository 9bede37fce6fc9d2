/**
 * The tabs of Settings, each a deep link, following the ARIA tabs pattern (arrow keys, Home and End
 * move between them).
 */
import { useRef } from 'preact/hooks';
import { navigate, ROUTES } from './router.js';

const TABS = [
  { id: 'general', label: 'General', route: ROUTES.general },
  { id: 'notifications', label: 'Notifications', route: ROUTES.notifications },
] as const;

/** A tab of Settings. */
export type SettingsTab = (typeof TABS)[number]['id'];

/** The tab a route belongs to, or null for a path that is no page. */
export function tabOf(route: string): SettingsTab | null {
  if (route === '/' || route === '/settings' || route.startsWith(ROUTES.notifications))
    return 'notifications';
  if (route === ROUTES.general) return 'general';
  return null;
}

// Notifications has one section: its tab opens it directly.
const routeOf = (tab: (typeof TABS)[number]) =>
  tab.id === 'notifications' ? ROUTES.auditWebhooks : tab.route;

/** The tab list, with `tab` selected. */
export function SettingsTabs({ tab }: { tab: SettingsTab }) {
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
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
    navigate(routeOf(TABS[target]!));
  };
  return (
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
          onClick={() => navigate(routeOf(t))}
          onKeyDown={(e) => onTabKey(e, index)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
