/**
 * A webhook's latency buckets drawn as bars (no chart library: the whole app stays small), with
 * the numbers in a table for screen readers.
 */
import { formatCount } from './format.js';

const BUCKET_LABELS: Record<string, string> = {
  '0_100_ms': '≤ 100 ms',
  '101_300_ms': '101–300 ms',
  '301_1000_ms': '301 ms–1 s',
  '1001_3000_ms': '1–3 s',
  '3001_plus_ms': '> 3 s',
};

/** The five latency buckets of a webhook as horizontal bars. */
export function LatencyBars({ buckets, label }: { buckets: Record<string, number>; label: string }) {
  const entries = Object.entries(buckets);
  const max = Math.max(1, ...entries.map(([, n]) => n));
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return (
    <figure class="latency-bars" data-chart="latency-buckets">
      <figcaption>Latency buckets</figcaption>
      <table aria-label={label}>
        <tbody>
          {entries.map(([key, count]) => (
            <tr key={key}>
              <th scope="row">{BUCKET_LABELS[key] ?? key}</th>
              <td>
                <span class="bar-track" aria-hidden="true">
                  <span class={`bar bar-${key}`} style={{ width: `${(count / max) * 100}%` }} />
                </span>
                <span class="bar-value">
                  {formatCount(count)}
                  {total > 0 && <span class="muted"> ({Math.round((count / total) * 100)} %)</span>}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
