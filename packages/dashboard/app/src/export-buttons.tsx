/** "Export NDJSON" and "Export CSV" with the page's filters (owners and admins: `activity:export`). */
import { useState } from 'preact/hooks';
import type { ActivityFilters } from './activity-query.js';
import type { ApiError } from './api.js';
import { downloadExport } from './export-activity.js';

/** The two buttons and what the last export did. */
export function ExportButtons({ org, filters }: { org: string; filters: ActivityFilters }) {
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = (format: 'ndjson' | 'csv') => {
    setBusy(true);
    setNote(null);
    downloadExport(org, filters, format)
      .then((name) => setNote({ ok: true, text: `Downloaded ${name}.` }))
      .catch((error: ApiError) => setNote({ ok: false, text: `Export failed: ${error.message}` }))
      .finally(() => setBusy(false));
  };
  const narrowed = filters.project || filters.environment || filters.actor;
  return (
    <div class="export">
      <button type="button" class="secondary" disabled={busy} onClick={() => run('ndjson')}>
        Export NDJSON
      </button>
      <button type="button" class="secondary" disabled={busy} onClick={() => run('csv')}>
        Export CSV
      </button>
      {narrowed && (
        <p class="help">The export covers the whole organization with the type and time filters.</p>
      )}
      {note && (
        <p class={note.ok ? 'help' : 'field-error'} role={note.ok ? 'status' : 'alert'}>
          {note.text}
        </p>
      )}
    </div>
  );
}
