import { describe, expect, it } from 'vitest';
import { renderPrometheus } from './prometheus.js';
import type { MetricsReport } from './report.js';

const report = (window: MetricsReport['window']): MetricsReport => ({
  window,
  summary: {
    attempted: 3,
    succeeded: 2,
    failed: 1,
    success_rate: 66.67,
    dead_lettered_webhooks: 1,
    latency: { p50_ms: 40, p95_ms: 900, p99_ms: 900 },
  },
  webhooks: [
    {
      id: 'awh_1',
      name: 'SIEM "prod"\nline \\ two',
      status: 'dead_letter',
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
      last_error: null,
    },
  ],
});

describe('renderPrometheus', () => {
  const text = renderPrometheus([
    { organization: 'acme', report: report('24h') },
    { organization: 'acme', report: report('7d') },
  ]);
  const labels = 'organization="acme",webhook="awh_1",name="SIEM \\"prod\\"\\nline \\\\ two"';

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

  it('escapes label values so every sample is one line', () => {
    for (const line of text.trimEnd().split('\n')) {
      expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+\{.*\} [0-9.]+)$/);
    }
  });
});
