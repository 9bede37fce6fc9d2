/** A page of a webhook's delivery attempts as a table, newest first. */
import { formatMs, formatTime } from './format.js';
import { ResultBadge } from './status-badge.js';
import { TableHead } from './table-head.js';
import type { Attempt } from './types.js';

const COLUMNS = ['Time', 'Event', 'Attempt', 'Result', 'Latency', 'Error'] as const;

/** The attempts of page `page` (from 1), one row each. */
export function AttemptsTable({ attempts, page }: { attempts: Attempt[]; page: number }) {
  return (
    <div class="table-scroll">
      <table>
        <caption class="visually-hidden">Delivery attempts, newest first, page {page}</caption>
        <TableHead columns={COLUMNS} />
        <tbody>
          {attempts.map((a) => (
            <AttemptRow key={a.id} attempt={a} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AttemptRow({ attempt: a }: { attempt: Attempt }) {
  return (
    <tr>
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
  );
}
