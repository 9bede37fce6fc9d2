/**
 * Charts drawn as SVG from the figures (no chart library: the whole app stays small). Each chart
 * is an image with a text alternative and the same numbers as a table for screen readers.
 */
import { formatCount, formatMs, formatShortTime } from './format.js';
import type { TimelineBucket } from './types.js';

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

const W = 720;
const H = 180;
const PAD = { left: 44, right: 8, top: 10, bottom: 24 };

function niceMax(value: number): number {
  if (value <= 5) return 5;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((m) => m >= value) ?? value;
}

/** Attempts per bucket (succeeded and failed stacked) and the p95 latency as a line above them. */
export function TimelineChart({ buckets, caption }: { buckets: TimelineBucket[]; caption: string }) {
  const maxCount = niceMax(Math.max(0, ...buckets.map((b) => b.attempted)));
  const maxLatency = niceMax(Math.max(0, ...buckets.map((b) => b.latency.p95_ms)));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, buckets.length);
  const barW = Math.max(1, slot * 0.7);
  const y = (n: number) => PAD.top + innerH - (n / maxCount) * innerH;
  const yLatency = (ms: number) => PAD.top + innerH - (ms / maxLatency) * innerH;
  const line = buckets
    .map((b, i) =>
      b.attempted > 0 ? `${PAD.left + slot * i + slot / 2},${yLatency(b.latency.p95_ms)}` : null,
    )
    .filter(Boolean)
    .join(' ');
  const totals = buckets.reduce((t, b) => ({ ok: t.ok + b.succeeded, bad: t.bad + b.failed }), {
    ok: 0,
    bad: 0,
  });
  const first = buckets[0];
  const last = buckets[buckets.length - 1];
  return (
    <figure class="timeline" data-chart="timeline" data-buckets={buckets.length}>
      <figcaption>{caption}</figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${caption}: ${formatCount(totals.ok)} succeeded and ${formatCount(totals.bad)} failed attempts in ${buckets.length} intervals.`}
        preserveAspectRatio="none"
      >
        <line class="axis" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} />
        <text class="tick end" x={PAD.left - 6} y={PAD.top + 8}>
          {formatCount(maxCount)}
        </text>
        <text class="tick end" x={PAD.left - 6} y={PAD.top + innerH}>
          0
        </text>
        {buckets.map((b, i) => {
          const x = PAD.left + slot * i + (slot - barW) / 2;
          return (
            <g key={b.from}>
              <rect
                class="ok"
                x={x}
                width={barW}
                y={y(b.succeeded)}
                height={PAD.top + innerH - y(b.succeeded)}
              >
                <title>{`${formatShortTime(b.from)}: ${b.succeeded} succeeded, ${b.failed} failed, p95 ${formatMs(b.latency.p95_ms)}`}</title>
              </rect>
              <rect
                class="bad"
                x={x}
                width={barW}
                y={y(b.attempted)}
                height={y(b.succeeded) - y(b.attempted)}
              />
            </g>
          );
        })}
        {line && <polyline class="p95" points={line} fill="none" />}
        {buckets.map((b, i) =>
          b.attempted > 0 ? (
            <circle
              key={`p95-${b.from}`}
              class="p95-dot"
              cx={PAD.left + slot * i + slot / 2}
              cy={yLatency(b.latency.p95_ms)}
              r={3}
            />
          ) : null,
        )}
        {first && (
          <text class="tick" x={PAD.left} y={H - 6}>
            {formatShortTime(first.from)}
          </text>
        )}
        {last && (
          <text class="tick end" x={W - PAD.right} y={H - 6}>
            {formatShortTime(last.to)}
          </text>
        )}
      </svg>
      <p class="legend" aria-hidden="true">
        <span class="key ok" /> succeeded <span class="key bad" /> failed <span class="key p95" /> p95 latency
        (up to {formatMs(maxLatency)})
      </p>
      <details class="as-table">
        <summary>Show as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Attempted</th>
              <th scope="col">Succeeded</th>
              <th scope="col">Failed</th>
              <th scope="col">p95</th>
            </tr>
          </thead>
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
    </figure>
  );
}
