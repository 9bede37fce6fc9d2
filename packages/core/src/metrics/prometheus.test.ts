import { describe, expect, it } from 'vitest';
import { renderPrometheus } from './prometheus.js';
import type { SeriesReport } from './prometheus-series.js';

const figures = {
  attempted: 3,
  succeeded: 2,
  failed: 1,
  success_rate: 66.67,
  latency: { p50_ms: 40, p95_ms: 900, p99_ms: 900 },
  latency_buckets: {
    '0_100_ms': 2,
    '101_300_ms': 0,
    '301_1000_ms': 1,
    '1001_3000_ms': 0,
    '3001_plus_ms': 0,
  },
};

const report = (window: SeriesReport['window']): SeriesReport => ({
  window,
  deadLettered: 1,
  series: [
    { webhook: 'awh_1', status: 'dead_letter', figures },
    { webhook: 'other', status: null, figures },
  ],
});

describe('renderPrometheus', () => {
  const text = renderPrometheus([
    { organization: 'acme', report: report('24h') },
    { organization: 'acme', report: report('7d') },
  ]);
  const labels = 'organization="acme",webhook="awh_1"';

  it('writes each family once with HELP and TYPE, and the figures of every window', () => {
    expect(text.match(/^# TYPE latchkey_audit_webhook_attempts gauge$/gm)).toHaveLength(1);
    expect(text).toContain(`latchkey_audit_webhook_attempts{${labels},window="24h",outcome="succeeded"} 2\n`);
    expect(text).toContain(`latchkey_audit_webhook_attempts{${labels},window="7d",outcome="failed"} 1\n`);
    expect(text).toContain(`latchkey_audit_webhook_success_rate{${labels},window="24h"} 66.67\n`);
    expect(text).toContain(
      `latchkey_audit_webhook_latency_percentile_seconds{${labels},window="24h",percentile="95"} 0.9\n`,
    );
    expect(text).toContain(
      `latchkey_audit_webhook_latency_range_attempts{${labels},window="7d",range="301_1000_ms"} 1\n`,
    );
    expect(text).toContain('latchkey_audit_webhooks_dead_lettered{organization="acme",window="24h"} 1\n');
    expect(text).toContain(`latchkey_audit_webhook_status{${labels},status="dead_letter"} 1\n`);
    expect(text).toContain(`latchkey_audit_webhook_status{${labels},status="active"} 0\n`);
  });

  it('writes the summed webhooks as one series, without a state', () => {
    expect(text).toContain(
      'latchkey_audit_webhook_attempts{organization="acme",webhook="other",window="24h",outcome="succeeded"} 2\n',
    );
    expect(text).not.toMatch(/latchkey_audit_webhook_status\{[^}]*webhook="other"/);
  });

  it('writes every sample on one line, with no label but organization, webhook id and fixed words', () => {
    for (const line of text.trimEnd().split('\n')) {
      expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+\{.*\} [0-9.]+)$/);
      for (const [, name] of line.matchAll(/(\w+)="/g)) {
        expect(['organization', 'webhook', 'window', 'outcome', 'percentile', 'range', 'status']).toContain(
          name,
        );
      }
    }
  });
});
