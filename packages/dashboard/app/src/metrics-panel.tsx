/**
 * Delivery metrics over a window the admin picks (24h, 7d, 30d): the summary the metrics route answers and a
 * timeline of attempts, failures and p95 latency over the window.
 */

import { formatCount, formatMs, formatRate } from './format.js';
import { ErrorNote, Status } from './states.js';
import { TimelineChart } from './timeline-chart.js';
import type { Metrics, MetricsWindow, Timeline } from './types.js';
import type { RequestState } from './use-request.js';

const WINDOWS: { value: MetricsWindow; label: string }[] = [
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
];

export function MetricsPanel(props: {
  window: MetricsWindow;
  onWindow(window: MetricsWindow): void;
  metrics: RequestState<Metrics>;
  timeline: RequestState<Timeline>;
}) {
  const { metrics, timeline } = props;
  const summary = metrics.data?.summary;
  const label = WINDOWS.find((w) => w.value === props.window)!.label;
  return (
    <section aria-labelledby="metrics-heading" class="card metrics">
      <div class="row">
        <h3 id="metrics-heading">Delivery metrics</h3>
        <fieldset class="segmented">
          <legend>Metrics window</legend>
          {WINDOWS.map((w) => (
            <label key={w.value}>
              <input
                type="radio"
                name="metrics-window"
                value={w.value}
                checked={props.window === w.value}
                onChange={() => props.onWindow(w.value)}
              />
              <span>{w.value}</span>
              <span class="visually-hidden"> ({w.label})</span>
            </label>
          ))}
        </fieldset>
      </div>
      {metrics.loading && !summary && <Status>Loading metrics…</Status>}
      {metrics.error && <ErrorNote error={metrics.error} onRetry={() => metrics.reload()} />}
      {summary && (
        <dl class="figures" aria-label={`Summary, ${label.toLowerCase()}`} data-window={metrics.data!.window}>
          <Figure name="Attempted" value={formatCount(summary.attempted)} />
          <Figure name="Succeeded" value={formatCount(summary.succeeded)} />
          <Figure
            name="Failed"
            value={formatCount(summary.failed)}
            tone={summary.failed > 0 ? 'bad' : undefined}
          />
          <Figure name="Success rate" value={formatRate(summary.success_rate, summary.attempted)} />
          <Figure
            name="Dead-lettered webhooks"
            value={formatCount(summary.dead_lettered_webhooks)}
            tone={summary.dead_lettered_webhooks > 0 ? 'bad' : undefined}
          />
          <Figure name="p50 latency" value={summary.attempted ? formatMs(summary.latency.p50_ms) : '—'} />
          <Figure name="p95 latency" value={summary.attempted ? formatMs(summary.latency.p95_ms) : '—'} />
          <Figure name="p99 latency" value={summary.attempted ? formatMs(summary.latency.p99_ms) : '—'} />
        </dl>
      )}
      {timeline.loading && !timeline.data && <Status>Loading the timeline…</Status>}
      {timeline.error && <ErrorNote error={timeline.error} onRetry={() => timeline.reload()} />}
      {timeline.data &&
        (timeline.data.buckets.every((b) => b.attempted === 0) ? (
          <p class="empty" data-chart="timeline-empty">
            No delivery attempts in the {label.toLowerCase()}.
          </p>
        ) : (
          <TimelineChart buckets={timeline.data.buckets} caption={`Attempts, ${label.toLowerCase()}`} />
        ))}
    </section>
  );
}

function Figure({ name, value, tone }: { name: string; value: string; tone?: 'bad' | undefined }) {
  return (
    <div class={tone}>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  );
}
