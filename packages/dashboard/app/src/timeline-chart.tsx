/**
 * The timeline of the metrics window, drawn as SVG from the figures (no chart library: the whole
 * app stays small): an image with a text alternative, a legend, and the same numbers as a table.
 */
import { formatMs, formatShortTime } from './format.js';
import { TimelinePlot } from './timeline-plot.js';
import { timelineScale } from './timeline-scale.js';
import { TimelineTable } from './timeline-table.js';
import type { TimelineBucket } from './types.js';

/** Attempts per bucket (succeeded and failed stacked) and the p95 latency as a line above them. */
export function TimelineChart({ buckets, caption }: { buckets: TimelineBucket[]; caption: string }) {
  const scale = timelineScale(buckets);
  return (
    <figure class="timeline" data-chart="timeline" data-buckets={buckets.length}>
      <figcaption>{caption}</figcaption>
      <TimelinePlot buckets={buckets} scale={scale} caption={caption} />
      {buckets.length > 0 && (
        <p class="time-axis" aria-hidden="true">
          <span>{formatShortTime(buckets[0]!.from)}</span>
          <span>{formatShortTime(buckets[buckets.length - 1]!.to)}</span>
        </p>
      )}
      <p class="legend" aria-hidden="true">
        <span class="key ok" /> succeeded <span class="key bad" /> failed <span class="key p95" /> p95 latency
        (up to {formatMs(scale.maxLatency)})
      </p>
      <TimelineTable buckets={buckets} />
    </figure>
  );
}
