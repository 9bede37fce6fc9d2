/** A webhook's attempt log, newest first, a page at a time (the API's `next_cursor`). */
import { AttemptsTable } from './attempts-table.js';
import { Empty, ErrorNote, Status } from './states.js';
import { useAttemptPages } from './use-attempt-pages.js';

/** The attempt log of the webhook at `path`, with reload and paging. */
export function DeliveriesTable({ id, path }: { id: string; path: string }) {
  const { page, number, older, newer } = useAttemptPages(path);
  return (
    <section id={id} class="deliveries" aria-label="Delivery attempts">
      <div class="row">
        <h5>Delivery attempts</h5>
        <button type="button" class="secondary small" onClick={() => page.reload()}>
          Reload attempts
        </button>
      </div>
      {page.loading && <Status>Loading attempts…</Status>}
      {page.error && <ErrorNote error={page.error} onRetry={() => page.reload()} />}
      {page.data && page.data.attempts.length === 0 && <Empty>No attempts yet.</Empty>}
      {page.data && page.data.attempts.length > 0 && (
        <AttemptsTable attempts={page.data.attempts} page={number} />
      )}
      <nav class="pager" aria-label="Attempt pages">
        <button type="button" class="secondary small" disabled={!newer} onClick={() => newer?.()}>
          Newer
        </button>
        <span>Page {number}</span>
        <button type="button" class="secondary small" disabled={!older} onClick={() => older?.()}>
          Older
        </button>
      </nav>
    </section>
  );
}
