/** A webhook's attempt log, newest first, a page at a time (the API's `next_cursor`). */
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { formatMs, formatTime } from './format.js';
import { Empty, ErrorNote, Status } from './states.js';
import { ResultBadge } from './status-badge.js';
import type { Attempt } from './types.js';
import { useRequest } from './use-request.js';

const PAGE = 10;

export function DeliveriesTable({ id, path }: { id: string; path: string }) {
  // The cursors of the pages seen, so "Newer" goes back the way "Older" came.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const page = useRequest(
    () =>
      api<{ attempts: Attempt[]; next_cursor: string | null }>(
        'GET',
        `${path}/deliveries?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      ),
    `${path} ${cursor}`,
  );
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
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">Delivery attempts, newest first, page {cursors.length}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Result</th>
                <th scope="col">Latency</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {page.data.attempts.map((a) => (
                <tr key={a.id}>
                  <td>
                    <time dateTime={a.at}>{formatTime(a.at)}</time>
                  </td>
                  <td>
                    <code>{a.event_type}</code>
                    {a.test && <span class="muted"> (test)</span>}
                  </td>
                  <td>{a.attempt}</td>
                  <td>
                    <ResultBadge ok={a.succeeded} />
                    {a.status_code !== null && <span class="muted"> HTTP {a.status_code}</span>}
                  </td>
                  <td>{formatMs(a.latency_ms)}</td>
                  <td>
                    {a.error ? `${a.error.code}: ${a.error.message}` : '—'}
                    {a.next_attempt_at && <div class="muted">retry at {formatTime(a.next_attempt_at)}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Attempt pages">
        <button
          type="button"
          class="secondary small"
          disabled={cursors.length === 1}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Newer
        </button>
        <span>Page {cursors.length}</span>
        <button
          type="button"
          class="secondary small"
          disabled={!page.data?.next_cursor}
          onClick={() => page.data?.next_cursor && setCursors([...cursors, page.data.next_cursor])}
        >
          Older
        </button>
      </nav>
    </section>
  );
}
