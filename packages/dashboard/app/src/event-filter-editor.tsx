/**
 * Edits which events a webhook receives: "All events", or a checklist of the catalog's types
 * grouped by resource, each with its description. Saved with `PATCH`; it applies to later events.
 */
import { ErrorNote, Status } from './states.js';
import type { AuditWebhook } from './types.js';
import { groupsOf, useEventFilter } from './use-event-filter.js';

const GROUP_NAMES: Record<string, string> = {
  organization: 'Organization',
  secrets: 'Secrets',
  audit_webhooks: 'Audit webhooks',
  evidence: 'Evidence trail',
};

/** The filter editor of one webhook card. */
export function EventFilterEditor(props: {
  webhook: AuditWebhook;
  path: string;
  id: string;
  onSaved(text: string): void;
  onCancel(): void;
}) {
  const { catalog, all, setAll, selected, toggle, busy, error, save } = useEventFilter(
    props.webhook,
    props.path,
    props.onSaved,
  );
  if (catalog.error) return <ErrorNote error={catalog.error} onRetry={() => catalog.reload()} />;
  if (!catalog.data) return <Status>Loading the event types…</Status>;
  const groups = groupsOf(catalog.data.event_types);
  return (
    <form
      id={props.id}
      class="event-filter"
      onSubmit={save}
      aria-label={`Events sent to ${props.webhook.name}`}
    >
      <label class="check all-events">
        <input type="checkbox" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} />
        All events
      </label>
      <div class="event-groups">
        {groups.map(([group, types]) => (
          <fieldset key={group} disabled={all}>
            <legend>{GROUP_NAMES[group] ?? group}</legend>
            {types.map((t) => (
              <label key={t.type} class="check" title={t.description}>
                <input
                  type="checkbox"
                  name={t.type}
                  checked={all || selected.has(t.type)}
                  onChange={(e) => toggle(t.type, e.currentTarget.checked)}
                />
                <code>{t.type}</code>
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
      <p class="help">A new filter applies to the events recorded after it is saved.</p>
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save event filter'}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
