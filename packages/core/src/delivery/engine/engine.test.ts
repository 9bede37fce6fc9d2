import { createWebhookVerifier } from '@latchkey/webhook-verifier';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../core.js';
import { generateKeyringKey } from '../../keyring/keyring.js';
import type { SendResult, Transport } from '../sending/sender.js';
import { createDeliveryEngine, type DeliveryEngineOptions } from './engine.js';

const TOKEN = 'lk_worker_test_token_000000000000000000000000';
const HOOKS = '/api/v2/organizations/acme/audit-webhooks';
const T0 = Date.parse('2026-11-24T12:00:00.000Z');

interface Sent {
  url: string;
  body: string;
  headers: Record<string, string>;
}

type Scripted = Transport & { sent: Sent[]; script: Partial<SendResult>[]; gate: Promise<void> | null };

/** A receiver that answers from a script (one answer per request, the last one repeated). */
function scriptedTransport(script: Partial<SendResult>[]): Scripted {
  const transport: Scripted = {
    sent: [],
    script,
    gate: null,
    async send({ url, body, headers }) {
      const sent = transport.sent;
      sent.push({ url, body, headers });
      if (transport.gate) await transport.gate;
      const answer = transport.script[Math.min(sent.length - 1, transport.script.length - 1)]!;
      const status = answer.statusCode ?? 200;
      const ok = status >= 200 && status < 300;
      return {
        ok,
        statusCode: status,
        latencyMs: 12,
        error: ok
          ? null
          : { code: 'http_status', status_code: status, message: `the receiver answered ${status}` },
        retryAfterSeconds: null,
        ...answer,
      };
    },
    async close() {},
  };
  return transport;
}

async function setUp(script: Partial<SendResult>[], schedule = [0, 5, 300]) {
  const clock = { now: T0 };
  const keyring = { current: 'k1', keys: { k1: generateKeyringKey() } };
  const webhooks = {
    resolve: async () => [{ address: '93.184.215.14', family: 4 }],
    retry: { schedule, jitter: 0 },
  };
  const core = createCore({ keyring, webhooks, now: () => clock.now });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const send = async (method: string, url: string, body?: unknown) => {
    const response = await core.handle({
      method,
      url,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: JSON.parse(response.body as string) as Record<string, unknown> };
  };
  const created = await send('POST', HOOKS, { name: 'siem', url: 'https://hooks.example.com/in' });
  expect(created.status).toBe(201);
  const transport = scriptedTransport(script);
  /** An engine over this core, its receiver and its clock; `more` adds or overrides options. */
  const newEngine = (more: Partial<DeliveryEngineOptions> = {}) =>
    createDeliveryEngine({ store: core.store, keyring, webhooks, transport, now: () => clock.now, ...more });
  const engine = newEngine({ random: () => 0.5 });
  const orgId = (await core.store.organizations.getBySlug('acme'))!.id;
  const webhookId = created.json['id'] as string;
  const secret = created.json['signing_secret'] as string;
  const webhook = async () => (await send('GET', `${HOOKS}/${webhookId}`)).json;
  const events = (type: string) =>
    core.store.activity.list({ organizationId: orgId, limit: 100, types: [type] });
  return {
    core,
    clock,
    send,
    engine,
    newEngine,
    transport,
    orgId,
    webhookId,
    secret,
    webhook,
    events,
    keyring,
    webhooks,
  };
}

describe('the delivery engine', () => {
  it('fail twice then succeed: three attempts of one event, each signed afresh, on the schedule', async () => {
    const t = await setUp([{ statusCode: 500 }, { statusCode: 503 }, { statusCode: 204 }]);
    // The webhook's own creation event is its first delivery.
    expect(await t.engine.runOnce()).toBe(1);
    expect(await t.engine.runOnce()).toBe(0);
    t.clock.now += 4_999;
    expect(await t.engine.runOnce()).toBe(0);
    t.clock.now += 1;
    expect(await t.engine.runOnce()).toBe(1);
    t.clock.now += 299_999;
    expect(await t.engine.runOnce()).toBe(0);
    t.clock.now += 1;
    expect(await t.engine.runOnce()).toBe(1);
    expect(t.transport.sent).toHaveLength(3);
    const verifier = createWebhookVerifier({ secret: t.secret, now: () => t.clock.now, replayStore: false });
    const ids = new Set<string>();
    const stamps = new Set<string>();
    for (const sent of t.transport.sent) {
      ids.add(sent.headers['X-Service-Event-Id']!);
      stamps.add(sent.headers['X-Service-Timestamp']!);
      expect(sent.body.startsWith(`{"id":"${sent.headers['X-Service-Event-Id']}"`)).toBe(true);
    }
    expect(ids.size).toBe(1);
    expect(stamps.size).toBe(3);
    // The last delivery verifies now (the earlier ones were signed for their own moment).
    const last = t.transport.sent[2]!;
    const event = (await verifier.verify(last.body, last.headers)).json() as unknown as { type: string };
    expect(event.type).toBe('audit_webhook_created');
    expect(await t.webhook()).toMatchObject({
      status: 'active',
      consecutive_failures: 0,
      last_delivery: { succeeded: true, status_code: 204 },
      last_error: { code: 'http_status', status_code: 503 },
    });
    const log = (await t.send('GET', `${HOOKS}/${t.webhookId}/deliveries`)).json as {
      attempts: Record<string, unknown>[];
    };
    expect(log.attempts.map((a) => [a['attempt'], a['succeeded'], a['status_code']])).toEqual([
      [3, true, 204],
      [2, false, 503],
      [1, false, 500],
    ]);
    expect(log.attempts[2]!['next_attempt_at']).toBe(new Date(T0 + 5_000).toISOString());
    expect(t.engine.counts).toMatchObject({ delivered: 1, retry: 2, dead_letter: 0 });
    // The endpoint and the Prometheus text tell the same figures.
    const metrics = (await t.send('GET', `${HOOKS}/metrics`)).json as { webhooks: Record<string, unknown>[] };
    expect(metrics.webhooks[0]).toMatchObject({ attempted: 3, succeeded: 1, failed: 2, success_rate: 33.33 });
    const text = await t.core.metricsText();
    const labels = `organization="acme",webhook="${t.webhookId}",window="24h"`;
    expect(text).toContain(`latchkey_audit_webhook_attempts{${labels},outcome="succeeded"} 1\n`);
    expect(text).toContain(`latchkey_audit_webhook_attempts{${labels},outcome="failed"} 2\n`);
    expect(text).toContain(`latchkey_audit_webhook_success_rate{${labels}} 33.33\n`);
  });

  it('deletes attempts and rollups past their retention, and nothing newer', async () => {
    const t = await setUp([{ statusCode: 500 }], [0, 86_400, 86_400, 86_400]);
    const engine = t.newEngine({ attemptRetentionDays: 2, rollupRetentionDays: 31 });
    // Attempts one day apart: days 0, 1, 2, 3.
    for (let day = 0; day < 4; day++) {
      expect(await engine.runOnce()).toBe(1);
      t.clock.now += 86_400_000;
    }
    // Now day 4: attempts of days 0 and 1 are older than 2 days.
    expect(await engine.prune()).toEqual({ attempts: 2, rollups: 0 });
    const log = (await t.send('GET', `${HOOKS}/${t.webhookId}/deliveries`)).json as {
      attempts: { attempt: number }[];
    };
    expect(log.attempts.map((a) => a.attempt)).toEqual([4, 3]);
    t.clock.now += 31 * 86_400_000;
    // 31 days later every rollup (a minute and an hour for each attempt) has gone, and so have the
    // attempts and the running total the first pruning took at its cutoff (a new one is kept at this one).
    expect(await engine.prune()).toEqual({ attempts: 2, rollups: 9 });
    expect(() =>
      createDeliveryEngine({
        store: t.core.store,
        keyring: t.keyring,
        transport: t.transport,
        rollupRetentionDays: 30,
      }),
    ).toThrow(/at least 31/);
  });

  it('dead-letters after the schedule, holds what comes meanwhile, and delivers it all on enable', async () => {
    const t = await setUp([{ statusCode: 500 }], [0, 1, 2]);
    for (let round = 0; round < 3; round++) {
      await t.engine.runOnce();
      t.clock.now += 2_000;
    }
    expect(t.transport.sent).toHaveLength(3);
    expect(await t.webhook()).toMatchObject({ status: 'dead_letter', consecutive_failures: 3 });
    const [dead] = await t.events('audit_webhook_dead_lettered');
    expect(dead).toMatchObject({
      actor: { type: 'system' },
      data: { webhook_id: t.webhookId, attempts: 3, reason: 'retries_exhausted' },
    });
    // Events while dead-lettered are held, not dropped, and not attempted.
    for (const slug of ['web', 'api'])
      expect((await t.send('POST', '/api/v2/organizations/acme/projects', { slug })).status).toBe(201);
    expect(await t.engine.runOnce()).toBe(0);
    expect(await t.core.store.deliveries.count(t.orgId, t.webhookId, 'held')).toBe(4);
    // The receiver is fixed; enabling releases everything held, in one go.
    t.transport.script = [{ statusCode: 200 }];
    t.transport.sent.length = 0;
    expect((await t.send('POST', `${HOOKS}/${t.webhookId}/enable`)).status).toBe(200);
    expect(await t.engine.runOnce()).toBe(5);
    const types = t.transport.sent.map((sent) => (JSON.parse(sent.body) as { type: string }).type);
    expect(types.sort()).toEqual(
      [
        'audit_webhook_created',
        'audit_webhook_dead_lettered',
        'audit_webhook_enabled',
        'project_created',
        'project_created',
      ].sort(),
    );
    expect(await t.webhook()).toMatchObject({ status: 'active', consecutive_failures: 0 });
    expect(await t.core.store.deliveries.count(t.orgId, t.webhookId, 'held')).toBe(0);
  });

  it('dead-letters at once on 410 Gone', async () => {
    const t = await setUp([{ statusCode: 410 }]);
    await t.engine.runOnce();
    expect(t.transport.sent).toHaveLength(1);
    expect(await t.webhook()).toMatchObject({ status: 'dead_letter', last_error: { status_code: 410 } });
    expect((await t.events('audit_webhook_dead_lettered'))[0]!.data).toMatchObject({
      reason: 'gone',
      attempts: 1,
    });
  });

  it("waits a 429's Retry-After instead of the schedule", async () => {
    const t = await setUp([{ statusCode: 429, retryAfterSeconds: 42 }, { statusCode: 200 }]);
    await t.engine.runOnce();
    t.clock.now += 41_999;
    expect(await t.engine.runOnce()).toBe(0);
    t.clock.now += 1;
    expect(await t.engine.runOnce()).toBe(1);
    expect(t.engine.counts).toMatchObject({ retry: 1, delivered: 1 });
  });

  it("takes over a crashed worker's claim when its lease ends; the late worker's record is refused", async () => {
    const t = await setUp([{ statusCode: 200 }]);
    const lease = new Date(T0 + 30_000).toISOString();
    const [crashed] = await t.core.store.deliveries.claim({
      now: new Date(T0).toISOString(),
      limit: 1,
      leaseUntil: lease,
    });
    expect(crashed).toBeDefined();
    t.clock.now += 29_000;
    expect(await t.engine.runOnce()).toBe(0);
    t.clock.now += 1_000;
    expect(await t.engine.runOnce()).toBe(1);
    expect(t.transport.sent).toHaveLength(1);
    // The crashed worker comes back and tries to record under its old lease: nothing is written.
    const late = {
      ...crashed!.delivery,
      id: crashed!.delivery.id,
    };
    const recorded = await t.core.store.deliveries.record(
      {
        attempt: {
          id: 'att_late000000000000',
          organization_id: t.orgId,
          webhook_id: t.webhookId,
          delivery_id: late.id,
          event_id: late.event_id,
          event_type: 'audit_webhook_created',
          attempt: 1,
          at: new Date(t.clock.now).toISOString(),
          succeeded: true,
          status_code: 200,
          latency_ms: 5,
          error: null,
          next_attempt_at: null,
        },
        outcome: 'delivered',
      },
      lease,
    );
    expect(recorded).toBe(false);
    const log = (await t.send('GET', `${HOOKS}/${t.webhookId}/deliveries`)).json as { attempts: unknown[] };
    expect(log.attempts).toHaveLength(1);
  });

  it('queues nothing for a disabled webhook', async () => {
    const t = await setUp([{ statusCode: 200 }]);
    expect((await t.send('POST', `${HOOKS}/${t.webhookId}/disable`)).status).toBe(200);
    await t.send('POST', '/api/v2/organizations/acme/projects', { slug: 'web' });
    expect(await t.engine.runOnce()).toBe(0);
    expect(t.transport.sent).toHaveLength(0);
  });

  it('runs in the background, wakes when asked, and stops only after the attempts in flight are recorded', async () => {
    const t = await setUp([{ statusCode: 200 }]);
    let release!: () => void;
    t.transport.gate = new Promise((resolve) => {
      release = resolve;
    });
    const engine = t.newEngine({ pollIntervalMs: 60_000 });
    engine.start();
    while (t.transport.sent.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const stopped = engine.stop();
    let done = false;
    void stopped.then(() => {
      done = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    release();
    await stopped;
    expect(engine.counts.delivered).toBe(1);
    expect(() => engine.start()).toThrow(/does not restart/);
    // A sleeping engine wakes on wake() rather than at its next poll (a minute away).
    t.transport.gate = null;
    const awake = t.newEngine({ pollIntervalMs: 60_000 });
    awake.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await t.send('POST', '/api/v2/organizations/acme/projects', { slug: 'woken' });
    awake.wake();
    const started = Date.now();
    while (awake.counts.delivered === 0 && Date.now() - started < 2_000)
      await new Promise((resolve) => setTimeout(resolve, 1));
    expect(awake.counts.delivered).toBe(1);
    await awake.stop();
  });

  it('keeps trying to watch for queued deliveries when the store cannot at first, and is woken once it can', async () => {
    const t = await setUp([{ statusCode: 200 }]);
    let calls = 0;
    let notify: (() => void) | null = null;
    const store = {
      ...t.core.store,
      async watchDeliveries(onQueued: () => void) {
        calls++;
        if (calls === 1) throw new Error('the database is away');
        notify = onQueued;
        return async () => {
          notify = null;
        };
      },
    };
    const logged: string[] = [];
    const engine = t.newEngine({
      store,
      pollIntervalMs: 60_000,
      watchRetryMs: 10,
      logger: { error: (message) => logged.push(message) },
    });
    engine.start();
    const began = Date.now();
    while (notify === null && Date.now() - began < 2_000)
      await new Promise((resolve) => setTimeout(resolve, 1));
    expect(calls).toBe(2);
    expect(logged).toEqual(['cannot watch for queued deliveries yet; polling, and trying again']);
    // The first round delivered what was queued at start; the next delivery comes from a wake-up.
    while (engine.counts.delivered === 0 && Date.now() - began < 2_000)
      await new Promise((resolve) => setTimeout(resolve, 1));
    await t.send('POST', '/api/v2/organizations/acme/projects', { slug: 'watched' });
    (notify as unknown as () => void)();
    while (engine.counts.delivered < 2 && Date.now() - began < 4_000)
      await new Promise((resolve) => setTimeout(resolve, 1));
    expect(engine.counts.delivered).toBe(2);
    await engine.stop();
    expect(notify).toBeNull();
  });
});
