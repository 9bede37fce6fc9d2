/** The timeline's numbers as a table, folded away under the chart. */
import { formatCount, formatMs, formatShortTime } from './format.js';
import { TableHead } from './table-head.js';
import type { TimelineBucket } from './types.js';

const COLUMNS = ['From', 'Attempted', 'Succeeded', 'Failed', 'p95'] as const;

/** One row per bucket: its start, counts and p95 latency. */
export function TimelineTable({ buckets }: { buckets: TimelineBucket[] }) {
  return (
    <details class="as-table">
      <summary>Show as a table</summary>
      <table>
        <TableHead columns={COLUMNS} />
        <tbody>
          {buckets.map((b) => (
            <tr key={b.from}>
              <td>{formatShortTime(b.from)}</td>
              <td>{formatCount(b.attempted)}</td>
              <td>{formatCount(b.succeeded)}</td>
              <td>{formatCount(b.failed)}</td>
              <td>{b.attempted ? formatMs(b.latency.p95_ms) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
