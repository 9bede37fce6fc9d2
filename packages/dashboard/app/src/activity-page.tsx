/**
 * Activity: the history newest first (owners and admins: the organization's; others: a granted
 * project's or environment's), filtered from the URL, with Verify and Export; owners and admins
 * also see the Transparency panel (the latest checkpoint and its witnesses).
 */
import { useEffect, useState } from 'preact/hooks';
import { ActivityEventRow } from './activity-event-row.js';
import { ActivityFiltersForm } from './activity-filters.js';
import { type ActivityFilters, useFilters } from './activity-query.js';
import { historyPath, organizationPath, readsOrganization } from './activity-scope.js';
import { VerifyPanel, type VerifyState } from './activity-verify.js';
import type { ApiError } from './api.js';
import { ExportButtons } from './export-buttons.js';
import { useRights } from './rights.js';
import { Empty, ErrorNote, Status } from './states.js';
import { TransparencyPanel } from './transparency-panel.js';
import type { ActivityEvent, Me } from './types.js';
import { useActivityPages } from './use-activity-pages.js';
import { verifyLoaded, verifyOrganizationChain } from './verify-activity.js';

/** The page body (below the top bar). */
export function ActivityPage({ me }: { me: Me }) {
  const [filters, setFilters] = useFilters();
  const path = historyPath(me, filters);
  const wide = readsOrganization(me);
  useEffect(() => {
    document.title = 'Activity · Latchkey';
  }, []);
  return (
    <main>
      <h1>Activity</h1>
      <p class="lead">
        {wide
          ? 'Everything that changed in the organization, newest first.'
          : 'The events of the projects and environments you were granted, newest first.'}
      </p>
      {wide && <TransparencyPanel me={me} />}
      <ActivityFiltersForm me={me} filters={filters} onApply={setFilters} />
      {path ? <History me={me} path={path} filters={filters} /> : <Empty>You were granted no project.</Empty>}
    </main>
  );
}

/** The events, the toolbar (Verify, Export) and "Load more". */
function History({ me, path, filters }: { me: Me; path: string; filters: ActivityFilters }) {
  const wide = readsOrganization(me);
  // The whole chain is verified from the export: without it, the events on screen are.
  const { exportActivity } = useRights();
  const exports = wide && exportActivity;
  const pages = useActivityPages(path, filters);
  const [verify, setVerify] = useState<VerifyState>({ state: 'idle' });
  const events = pages.state.data?.events ?? [];
  const flagged = verify.state === 'done' && !verify.result.ok ? verify.result.seq : null;

  const run = async (loaded: ActivityEvent[]) => {
    setVerify({ state: 'running' });
    try {
      const result = exports
        ? await verifyOrganizationChain(organizationPath(me), me.organization.slug, loaded)
        : await verifyLoaded(loaded);
      setVerify({ state: 'done', result });
    } catch (error) {
      setVerify({ state: 'error', error: error as ApiError });
    }
  };

  return (
    <section aria-labelledby="history-title">
      <div class="row">
        <h2 id="history-title">History</h2>
        {exports && <ExportButtons org={organizationPath(me)} filters={filters} />}
      </div>
      <VerifyPanel state={verify} onVerify={() => void run(events)} />
      {pages.state.loading && <Status>Loading the history…</Status>}
      {pages.state.error && <ErrorNote error={pages.state.error} onRetry={() => pages.state.reload()} />}
      {pages.state.data && events.length === 0 && <Empty>No events match these filters.</Empty>}
      {events.length > 0 && (
        <ol class="events" aria-label="Events, newest first" data-count={events.length}>
          {events.map((event) => (
            <ActivityEventRow key={event.id} event={event} flagged={event.seq === flagged} />
          ))}
        </ol>
      )}
      {pages.moreError && <ErrorNote error={pages.moreError} />}
      {pages.more && (
        <button type="button" class="secondary" onClick={pages.more}>
          Load more
        </button>
      )}
      {pages.loadingMore && <Status>Loading more events…</Status>}
    </section>
  );
}
