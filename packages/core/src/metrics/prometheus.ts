/**
 * The audit webhook metrics as Prometheus text (exposition format 0.0.4): the same figures as the
 * metrics endpoint, per organization and webhook (by id; at most so many per organization, the
 * rest summed as `other`, see `prometheus-series.ts`), for each window. Gauges, since each figure is
 * a count over a sliding window rather than a counter since start.
 */
import type { SeriesReport } from './prometheus-series.js';

/** The content type to serve it with. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** A label value as the exposition format writes it: backslash, quote and newline escaped. */
export const escapeLabel = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labels = (pairs: Record<string, string>) =>
  `{${Object.entries(pairs)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(',')}}`;

const FAMILIES = {
  latchkey_audit_webhook_attempts: 'Delivery attempts in the window, by outcome.',
  latchkey_audit_webhook_success_rate: 'Percent of attempts that succeeded in the window (0 with none).',
  latchkey_audit_webhook_latency_percentile_seconds:
    'Latency percentiles in the window (nearest rank, within 0.4 %), seconds.',
  latchkey_audit_webhook_latency_range_attempts:
    "Attempts in the window by latency range (the metrics endpoint's latency_buckets).",
  latchkey_audit_webhook_status:
    'The webhook state: 1 for the current one (webhooks with series of their own).',
  latchkey_audit_webhooks_dead_lettered: 'Webhooks of the organization in dead_letter.',
} as const;

/** Renders reports (one per organization and window) as Prometheus text. */
export function renderPrometheus(reports: { organization: string; report: SeriesReport }[]): string {
  const lines = new Map<keyof typeof FAMILIES, string[]>(
    (Object.keys(FAMILIES) as (keyof typeof FAMILIES)[]).map((name) => [name, []]),
  );
  const add = (name: keyof typeof FAMILIES, pairs: Record<string, string>, value: number) =>
    lines.get(name)!.push(`${name}${labels(pairs)} ${value}`);
  for (const { organization, report } of reports) {
    const window = report.window;
    add('latchkey_audit_webhooks_dead_lettered', { organization, window }, report.deadLettered);
    for (const { webhook, status: current, figures: w } of report.series) {
      const base = { organization, webhook, window };
      add('latchkey_audit_webhook_attempts', { ...base, outcome: 'succeeded' }, w.succeeded);
      add('latchkey_audit_webhook_attempts', { ...base, outcome: 'failed' }, w.failed);
      add('latchkey_audit_webhook_success_rate', base, w.success_rate);
      const percentile = 'latchkey_audit_webhook_latency_percentile_seconds';
      add(percentile, { ...base, percentile: '50' }, w.latency.p50_ms / 1000);
      add(percentile, { ...base, percentile: '95' }, w.latency.p95_ms / 1000);
      add(percentile, { ...base, percentile: '99' }, w.latency.p99_ms / 1000);
      for (const [range, count] of Object.entries(w.latency_buckets)) {
        add('latchkey_audit_webhook_latency_range_attempts', { ...base, range }, count);
      }
      if (window === '24h' && current !== null) {
        for (const status of ['active', 'disabled', 'dead_letter']) {
          add('latchkey_audit_webhook_status', { organization, webhook, status }, current === status ? 1 : 0);
        }
      }
    }
  }
  const out: string[] = [];
  for (const [name, help] of Object.entries(FAMILIES) as [keyof typeof FAMILIES, string][]) {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, ...lines.get(name)!);
  }
  return `${out.join('\n')}\n`;
}
