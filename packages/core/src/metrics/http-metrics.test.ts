/**
 * The HTTP counters of `core.metricsText()`: a known workload through `core.handle` gives exactly its
 * figures; nothing a caller sends becomes a label; and the whole text passes Prometheus's own
 * parser and linter (`promtool check metrics`, Debian's `prometheus` package).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateDeviceKeyPair, signPush } from '../client/push.js';
import { createCore } from '../core.js';
import { generateKeyringKey } from '../keyring/keyring.js';
import { createMemoryStore } from '../memory/index.js';
import { createHttpMetrics } from './http-metrics.js';

const TOKEN = 'lk_http_metrics_test_token_0000000000000000';
const ORG = '/api/v2/organizations/acme';
const ENV = `${ORG}/projects/web/environments/prod`;
const address = { organization: 'acme', project: 'web', environment: 'prod' };
const PROMTOOL = ['/usr/bin/promtool', process.env['PROMTOOL'] ?? ''].find((p) => p && existsSync(p));
if (!PROMTOOL && process.env['CI'] === 'true') {
  throw new Error('promtool is required in CI and is not installed (apt-get install prometheus)');
}

async function workload() {
  const store = createMemoryStore();
  const core = createCore({
    store,
    logger: { error: () => {} },
    keyring: `k1:${generateKeyringKey()}`,
    webhooks: { allowHosts: 'localhost' },
  });
  const send = async (method: string, url: string, body?: unknown) =>
    core.handle({
      method,
      url,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const acme = await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  // A webhook no engine delivers to: every later event waits in its queue.
  const hook = await send('POST', `${ORG}/audit-webhooks`, {
    name: 'siem',
    url: 'https://localhost:9/events',
  });
  expect(hook.status).toBe(201);
  const webhookId = JSON.parse(hook.body as string).id as string;
  await send('POST', `${ORG}/projects`, { slug: 'web' });
  await send('POST', `${ORG}/projects/web/environments`, { slug: 'prod' });
  const keys = generateDeviceKeyPair();
  const device = JSON.parse(
    (await send('POST', `${ORG}/devices`, { name: 'laptop', public_key: keys.publicKey })).body as string,
  );
  const push = (changes: { key: string; value: string; if_version?: number }[], strict = false) =>
    send(
      'POST',
      `${ENV}/push`,
      signPush(
        { device_id: device.id, changes, ...(strict ? { conflict_mode: 'strict' as const } : {}) },
        address,
        keys.privateKey,
      ),
    );
  const statuses = [
    (await push([{ key: 'A', value: '1', if_version: 0 }])).status,
    (await push([{ key: 'A', value: '2', if_version: 1 }])).status,
    (await push([{ key: 'A', value: '3', if_version: 1 }])).status,
    (await push([{ key: 'B', value: '1' }], true)).status,
  ];
  expect(statuses).toEqual([200, 200, 409, 428]);
  for (let i = 0; i < 3; i++) expect((await send('GET', ORG)).status).toBe(200);
  // Hostile paths and methods: they are counted, but none of what they carry becomes a label.
  const hostile = [
    '/api/v2/organizations/"}\nevil{a="1/x',
    '/api/v2/organizations/acme%22%7D/nope',
    '/../etc/passwd',
  ];
  for (const path of hostile) expect((await send('GET', path)).status).toBe(404);
  expect((await send('BREW', ORG)).status).toBe(405);
  expect((await send('POST', '/api/v2/organizations', { slug: 'Evil"}\n', name: 'x' })).status).toBe(400);
  const pending = await store.deliveries.count(acme.id, webhookId, 'pending');
  return { text: await core.metricsText(), pending };
}

const sample = (text: string, name: string, labels = '') => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe('HTTP metrics', () => {
  it('hold the figures of a known workload exactly', async () => {
    const { text, pending } = await workload();
    expect(pending).toBeGreaterThan(5);
    expect(sample(text, 'latchkey_delivery_queue_depth', 'organization="acme"')).toBe(pending);
    expect(
      sample(text, 'latchkey_delivery_oldest_due_age_seconds', 'organization="acme"'),
    ).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'latchkey_pushes_applied_total')).toBe(2);
    expect(sample(text, 'latchkey_push_conflicts_total')).toBe(1);
    expect(sample(text, 'latchkey_push_strict_refusals_total')).toBe(1);
    expect(sample(text, 'latchkey_store_errors_total')).toBe(0);
    expect(
      sample(text, 'latchkey_http_requests_total', 'route="push",method="POST",status_class="2xx"'),
    ).toBe(2);
    expect(
      sample(text, 'latchkey_http_requests_total', 'route="push",method="POST",status_class="4xx"'),
    ).toBe(2);
    expect(
      sample(text, 'latchkey_http_requests_total', 'route="getOrganization",method="GET",status_class="2xx"'),
    ).toBe(3);
    expect(
      sample(text, 'latchkey_http_requests_total', 'route="unmatched",method="GET",status_class="4xx"'),
    ).toBe(3);
    expect(
      sample(text, 'latchkey_http_requests_total', 'route="unmatched",method="other",status_class="4xx"'),
    ).toBe(1);
    expect(sample(text, 'latchkey_http_request_duration_seconds_count', 'route="push"')).toBe(4);
    expect(sample(text, 'latchkey_http_request_duration_seconds_bucket', 'route="push",le="+Inf"')).toBe(4);
  });

  it('take label values from the route table and fixed sets only', async () => {
    const { text } = await workload();
    const values = [...text.matchAll(/(\w+)="([^"]*)"/g)].map(([, name, value]) => [name, value] as const);
    for (const [name, value] of values) {
      if (name === 'route') expect(value).toMatch(/^[A-Za-z]+$/);
      if (name === 'method')
        expect(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'other']).toContain(value);
      if (name === 'organization') expect(value).toBe('acme');
      if (name === 'name') expect(value).toBe('siem');
    }
    expect(text).not.toMatch(/evil|passwd|BREW/i);
  });

  it('count store errors, and keep each histogram cumulative', () => {
    const metrics = createHttpMetrics();
    metrics.observe({
      route: 'push',
      method: 'POST',
      status: 503,
      durationMs: 30,
      errorCode: 'service_unavailable',
    });
    metrics.observe({ route: 'push', method: 'POST', status: 500, durationMs: 3_000, errorCode: 'internal' });
    metrics.observe({ route: 'push', method: 'POST', status: 200, durationMs: 1 });
    const text = metrics.render();
    expect(sample(text, 'latchkey_store_errors_total')).toBe(2);
    expect(sample(text, 'latchkey_http_request_duration_seconds_bucket', 'route="push",le="0.005"')).toBe(1);
    expect(sample(text, 'latchkey_http_request_duration_seconds_bucket', 'route="push",le="0.05"')).toBe(2);
    expect(sample(text, 'latchkey_http_request_duration_seconds_bucket', 'route="push",le="5"')).toBe(3);
    expect(sample(text, 'latchkey_http_request_duration_seconds_sum', 'route="push"')).toBeCloseTo(3.031, 6);
  });

  // Skipped only off CI when promtool is missing (in CI this module has already failed).
  it.skipIf(!PROMTOOL)(`passes promtool check metrics${PROMTOOL ? '' : ' (needs promtool)'}`, async () => {
    const { text } = await workload();
    // Every family has samples: the webhook's, the queue's and the requests'.
    expect(text).toMatch(/^latchkey_audit_webhook_attempts\{/m);
    const checked = spawnSync(PROMTOOL!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${checked.stdout}${checked.stderr}`.trim()).toBe('');
    expect(checked.status).toBe(0);
    expect(execFileSync(PROMTOOL!, ['--version'], { encoding: 'utf8' })).toMatch(/promtool/);
  });
});
