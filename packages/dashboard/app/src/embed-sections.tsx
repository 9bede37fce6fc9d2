/**
 * The sections of an embedded portal session, under a line saying whose session it is and until
 * when: Audit Webhooks, Activity, Change requests, or those it opens as tabs (the ARIA tabs pattern). Each section is the
 * dashboard's own, drawn with the session's rights.
 */
import { useRef, useState } from 'preact/hooks';
import { ActivityPage } from './activity-page.js';
import { AuditWebhooksSection } from './audit-webhooks-section.js';
import { ChangesPage } from './changes-page.js';
import { type EmbedSection, embedSections, portalRights } from './embed-rights.js';
import { formatTime } from './format.js';
import { organizationName } from './organization-name.js';
import { RightsContext } from './rights.js';
import { Empty } from './states.js';
import type { Me, PortalSession } from './types.js';

const LABELS: Record<EmbedSection, string> = {
  'audit-webhooks': 'Audit Webhooks',
  activity: 'Activity',
  changes: 'Change requests',
};

/** The session's sections, with its rights. */
export function EmbedSections({ me, session }: { me: Me; session: PortalSession }) {
  const sections = embedSections(session);
  const [section, setSection] = useState<EmbedSection | undefined>(sections[0]);
  return (
    <RightsContext.Provider value={portalRights(session)}>
      <header class="embed-top">
        <p class="help" data-field="session">
          {organizationName(me)} · {me.user}
          {session.read_only && <span class="read-only"> · read-only</span>} · until{' '}
          {formatTime(session.expires_at)}
        </p>
        {sections.length > 1 && section && (
          <EmbedTabs sections={sections} section={section} onPick={setSection} />
        )}
      </header>
      {!section && (
        <main>
          <Empty>This session opens no section.</Empty>
        </main>
      )}
      {section && sections.length > 1 && (
        <div role="tabpanel" id="embed-panel" aria-labelledby={`embed-tab-${section}`}>
          <SectionBody me={me} section={section} />
        </div>
      )}
      {section && sections.length === 1 && <SectionBody me={me} section={section} />}
    </RightsContext.Provider>
  );
}

function SectionBody({ me, section }: { me: Me; section: EmbedSection }) {
  if (section === 'activity') return <ActivityPage me={me} />;
  if (section === 'changes') return <ChangesPage me={me} />;
  return (
    <main>
      <AuditWebhooksSection me={me} />
    </main>
  );
}

function EmbedTabs(props: {
  sections: EmbedSection[];
  section: EmbedSection;
  onPick(s: EmbedSection): void;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (event: KeyboardEvent, index: number) => {
    const count = props.sections.length;
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: count - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = (next + count) % count;
    refs.current[target]?.focus();
    props.onPick(props.sections[target]!);
  };
  return (
    <div role="tablist" aria-label="Sections" class="tabs">
      {props.sections.map((s, index) => (
        <button
          type="button"
          role="tab"
          key={s}
          id={`embed-tab-${s}`}
          ref={(el) => {
            refs.current[index] = el;
          }}
          aria-selected={s === props.section}
          aria-controls="embed-panel"
          tabIndex={s === props.section ? 0 : -1}
          onClick={() => props.onPick(s)}
          onKeyDown={(e) => onKey(e, index)}
        >
          {LABELS[s]}
        </button>
      ))}
    </div>
  );
}
