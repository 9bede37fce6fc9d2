/**
 * The engine records outcomes in batches and claims ahead (memory store): many attempts' outcomes
 * go in few transactions while a lone outcome is recorded at once; a flush that fails records
 * nothing and its deliveries are claimed again once their leases end; an engine that stops gives
 * back the claims it has not started, so another engine takes them at once.
 */
import { describe, expect, it } from 'vitest';
import { createCore } from '../../core.js';
import { generateKeyringKey } from '../../keyring/keyring.js';
import type { LatchkeyStore } from '../../store/ports/store.js';
import type { SendResult, Transport } from '../sending/sender.js';
import { createDeliveryEngine } from './engine.js';

const keyring = { current: 'k1', keys: { k1: generateKeyringKey() } };
const webhooks = {
  resolve: async () => [{ address: '93.184.215.14', family: 4 as const }],
  retry: { schedule: [0, 5], jitter: 0 },
};
const OK: SendResult = { ok: true, statusCode: 200, latencyMs: 1, error: null, retryAfterSeconds: null };
const TOKEN = 'lk_batch_test_token_'.padEnd(44, '0');

const until = async (condition: () => boolean | Promise<boolean>, ms = 5_000) => {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 2));
  }
};

/** A core with one webhook and `events` more events owed to it; the store counts recording transactions. */
async function setUp(events: number) {
  const core = createCore({ keyring, webhooks });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const post = (path: string, body: unknown) =>
    core.handle({
      method: 'POST',
      url: `/api/v2/organizations/acme${path}`,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await post('/audit-webhooks', { name: 'siem', url: 'https://hooks.example.com/in' });
  for (let i = 0; i < events; i++) await post('/projects', { slug: `b${i}` });
  const batches: number[] = [];
  const failNext = { flushes: 0 };
  const inner = core.store;
  const store: LatchkeyStore = {
    ...inner,
    transaction: (fn) =>
      inner.transaction((tx) =>
        fn({
          ...tx,
          deliveries: {
            ...tx.deliveries,
            async recordMany(records) {
              if (failNext.flushes > 0) {
                failNext.flushes--;
                throw new Error('the database went away');
              }
              batches.push(records.length);
              return tx.deliveries.recordMany(records);
            },
          },
        }),
      ),
  };
  const orgId = (await inner.organizations.getBySlug('acme'))!.id;
  return { core, store, batches, failNext, orgId };
}

/** A receiver answering after `ms`, or when released while `hold` is set. */
function receiver(ms: number) {
  const sent: number[] = [];
  let release: () => void = () => {};
  const gate = { hold: false, released: new Promise<void>((r) => (release = r)) };
  const transport: Transport = {
    async send() {
      sent.push(Date.now());
      if (gate.hold) await gate.released;
      await new Promise((r) => setTimeout(r, ms));
      return OK;
    },
    async close() {},
  };
  return { transport, sent, gate, release: () => release() };
}

describe('the delivery engine records in batches', () => {
  it('records many outcomes to a transaction, and a lone outcome at once', async () => {
    const t = await setUp(200);
    const r = receiver(1);
    const engine = createDeliveryEngine({ store: t.store, keyring, webhooks, transport: r.transport });
    engine.start();
    await until(() => engine.counts.delivered === 201);
    const recorded = t.batches.reduce((a, b) => a + b, 0);
    expect(recorded).toBe(201);
    // 201 outcomes in far fewer transactions than attempts.
    expect(t.batches.length).toBeLessThan(201 / 4);
    // A quiet webhook: one event, recorded within a few flush delays of its answer.
    const before = t.batches.length;
    await t.core.handle({
      method: 'POST',
      url: '/api/v2/organizations/acme/projects',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'quiet' }),
    });
    engine.wake();
    await until(() => engine.counts.delivered === 202);
    expect(t.batches.slice(before)).toEqual([1]);
    expect(
      await t.core.store.deliveries.count(
        t.orgId,
        (await t.core.store.auditWebhooks.list(t.orgId))[0]!.id,
        'pending',
      ),
    ).toBe(0);
    await engine.stop();
  });

  it('a failed flush records nothing; its deliveries are claimed again when their leases end', async () => {
    const t = await setUp(5);
    const r = receiver(0);
    const clock = { now: Date.now() };
    const engine = createDeliveryEngine({
      store: t.store,
      keyring,
      webhooks,
      transport: r.transport,
      now: () => clock.now,
      leaseMs: 60_000,
      logger: { error() {} },
    });
    t.failNext.flushes = 1;
    expect(await engine.runOnce()).toBe(6);
    expect(engine.counts).toMatchObject({ failed: 6, delivered: 0 });
    // Leased still: nobody takes them before the lease ends.
    expect(await engine.runOnce()).toBe(0);
    clock.now += 60_000;
    expect(await engine.runOnce()).toBe(6);
    expect(engine.counts).toMatchObject({ failed: 6, delivered: 6 });
    expect(r.sent).toHaveLength(12);
  });

  it('an engine that stops gives back the claims it has not started', async () => {
    const t = await setUp(9);
    const r = receiver(0);
    r.gate.hold = true;
    const first = createDeliveryEngine({
      store: t.store,
      keyring,
      webhooks,
      transport: r.transport,
      concurrency: 2,
    });
    first.start();
    // One slot of two for the one webhook (its share); the other nine wait claimed in the queue.
    await until(() => r.sent.length === 1);
    const stopped = first.stop();
    r.release();
    await stopped;
    expect(first.counts.delivered).toBe(1);
    const second = createDeliveryEngine({ store: t.store, keyring, webhooks, transport: r.transport });
    expect(await second.runOnce()).toBe(9);
    expect(second.counts.delivered).toBe(9);
  });
});
