/**
 * The state of a webhook's event filter while it is edited: the catalog (`GET /event-types`), the
 * types checked (a saved prefix such as `push_*` shows as the types it selects), "all events", and
 * saving it with `PATCH`, which applies to the events recorded after it.
 */
import { useState } from 'preact/hooks';
import { type ApiError, api } from './api.js';
import type { AuditWebhook, EventTypeEntry, EventTypeList } from './types.js';
import { useRequest } from './use-request.js';

/** Whether the saved filter `filter` selects `type` (names exactly, `*` prefixes by their start). */
export function filterSelects(filter: readonly string[], type: string): boolean {
  return (
    filter.length === 0 ||
    filter.some((entry) => (entry.endsWith('*') ? type.startsWith(entry.slice(0, -1)) : entry === type))
  );
}

/** The catalog's types by group, in catalog order. */
export function groupsOf(types: readonly EventTypeEntry[]): [string, EventTypeEntry[]][] {
  const groups = new Map<string, EventTypeEntry[]>();
  for (const entry of types) groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
  return [...groups];
}

/** The editor's state for `webhook`, whose API path is `path`; `onSaved` runs after a save. */
export function useEventFilter(webhook: AuditWebhook, path: string, onSaved: (text: string) => void) {
  const catalog = useRequest(() => api<EventTypeList>('GET', '/event-types'), 'event-types');
  const [all, setAll] = useState(webhook.event_types.length === 0);
  const [checked, setChecked] = useState<Set<string> | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const types = catalog.data?.event_types ?? [];
  // Until the first change, what the saved filter selects.
  const selected =
    checked ?? new Set(types.filter((t) => filterSelects(webhook.event_types, t.type)).map((t) => t.type));

  const toggle = (type: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(type);
    else next.delete(type);
    setChecked(next);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const names = types.map((t) => t.type).filter((type) => selected.has(type));
    if (!all && names.length === 0) {
      setError('Choose at least one event type, or All events.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api('PATCH', path, { event_types: all ? [] : names });
      onSaved(all ? 'Event filter saved: every event.' : `Event filter saved: ${names.length} event types.`);
    } catch (failure) {
      setError((failure as ApiError).message);
    } finally {
      setBusy(false);
    }
  };

  return { catalog, all, setAll, selected, toggle, busy, error, save };
}
