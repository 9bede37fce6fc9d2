/** A webhook's figures over the metrics window, with its latency buckets as bars. */
import { formatCount, formatRate } from './format.js';
import { LatencyBars } from './latency-bars.js';
import type { WebhookFigures as Figures, MetricsWindow } from './types.js';

/** Attempts, failures, success rate and latency percentiles of one webhook. */
export function WebhookFigures({ figures, window }: { figures: Figures; window: MetricsWindow }) {
  return (
    <div class="webhook-figures">
      <dl class="figures compact" aria-label={`${figures.name} over ${window}`}>
        <div>
          <dt>Attempted</dt>
          <dd>{formatCount(figures.attempted)}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{formatCount(figures.failed)}</dd>
        </div>
        <div>
          <dt>Success rate</dt>
          <dd>{formatRate(figures.success_rate, figures.attempted)}</dd>
        </div>
        <div>
          <dt>p50 / p95 / p99</dt>
          <dd>
            {figures.attempted === 0
              ? '—'
              : `${formatCount(figures.latency.p50_ms)} / ${formatCount(figures.latency.p95_ms)} / ${formatCount(figures.latency.p99_ms)}\u00a0ms`}
          </dd>
        </div>
      </dl>
      <LatencyBars buckets={figures.latency_buckets} label={`Latency of ${figures.name} over ${window}`} />
    </div>
  );
}
