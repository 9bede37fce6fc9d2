/**
 * The timeline as an SVG image: attempts per bucket (succeeded and failed stacked) and the p95
 * latency as a line above them, with a text alternative that sums them up.
 */
import { formatCount, formatMs, formatShortTime } from './format.js';
import { H, PAD, type TimelineScale, W } from './timeline-scale.js';
import type { TimelineBucket } from './types.js';

interface PlotProps {
  buckets: TimelineBucket[];
  scale: TimelineScale;
}

/**
 * The drawing, its axis and its top and bottom values. The first and last times are HTML below it
 * (`TimelineChart`): text inside a stretched SVG is squeezed with it and, at 390 px, ran together.
 */
export function TimelinePlot({ buckets, scale, caption }: PlotProps & { caption: string }) {
  const { innerH } = scale;
  const totals = buckets.reduce((t, b) => ({ ok: t.ok + b.succeeded, bad: t.bad + b.failed }), {
    ok: 0,
    bad: 0,
  });
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`${caption}: ${formatCount(totals.ok)} succeeded and ${formatCount(totals.bad)} failed attempts in ${buckets.length} intervals.`}
      preserveAspectRatio="none"
    >
      <line class="axis" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} />
      <text class="tick end" x={PAD.left - 6} y={PAD.top + 8}>
        {formatCount(scale.maxCount)}
      </text>
      <text class="tick end" x={PAD.left - 6} y={PAD.top + innerH}>
        0
      </text>
      <TimelineBars buckets={buckets} scale={scale} />
      <P95Line buckets={buckets} scale={scale} />
    </svg>
  );
}

/** A stacked bar per bucket: succeeded at the bottom, failed on top. */
function TimelineBars({ buckets, scale }: PlotProps) {
  const { slot, barW, y, innerH } = scale;
  return (
    <>
      {buckets.map((b, i) => {
        const x = PAD.left + slot * i + (slot - barW) / 2;
        return (
          <g key={b.from}>
            <rect class="ok" x={x} width={barW} y={y(b.succeeded)} height={PAD.top + innerH - y(b.succeeded)}>
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
    </>
  );
}

/** The p95 latency of the buckets that had attempts, as a line through a dot per bucket. */
function P95Line({ buckets, scale }: PlotProps) {
  const { xCenter, yLatency } = scale;
  const line = buckets
    .map((b, i) => (b.attempted > 0 ? `${xCenter(i)},${yLatency(b.latency.p95_ms)}` : null))
    .filter(Boolean)
    .join(' ');
  return (
    <>
      {line && <polyline class="p95" points={line} fill="none" />}
      {buckets.map((b, i) =>
        b.attempted > 0 ? (
          <circle
            key={`p95-${b.from}`}
            class="p95-dot"
            cx={xCenter(i)}
            cy={yLatency(b.latency.p95_ms)}
            r={3}
          />
        ) : null,
      )}
    </>
  );
}
