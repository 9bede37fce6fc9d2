/**
 * The delivery engine on the SQL stores: woken by LISTEN/NOTIFY (a delivery starts within
 * milliseconds although the engine polls only every minute), retries and dead letters recorded
 * through real SQL, and two engines sharing one outbox without attempting a delivery twice.
 */
import { createCore, generateKeyringKey, type LatchkeyStore } from '@latchkey/core';
import { createDeliveryEngine, type SendResult, type Transport } from '@latchkey/core/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../src/index.js';
import { onPostgres, postgresStore } from './databases.js';
import { freshPglite } from './fresh-pglite.js';

const TOKEN = 'lk_delivery_engine_test_token_00000000000000';
const HOOKS = '/api/v2/organizations/acme/audit-webhooks';

function recordingTransport(answer: (n: number) => number = () => 200): Transport & { ids: string[] } {
  const ids: string[] = [];
  return {
    ids,
    async send({ headers }): Promise<SendResult> {
      ids.push(headers['X-Service-Event-Id']!);
      const status = answer(ids.length);
      const ok = status < 300;
      return {
        ok,
        statusCode: status,
        latencyMs: 3,
        error: ok ? null : { code: 'http_status', status_code: status, message: `answered ${status}` },
        retryAfterSeconds: null,
      };
    },
    async close() {},
  };
}

const until = async (condition: () => boolean | Promise<boolean>, ms = 5_000) => {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > ms) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return Date.now() - started;
};

function describeEngineOn(name: string, open: () => Promise<PostgresStore>) {
  describe(`delivery engine on ${name}`, () => {
    let store: PostgresStore;
    const keyring = { current: 'k1', keys: { k1: generateKeyringKey() } };
    const webhooks = {
      resolve: async () => [{ address: '93.184.215.14', family: 4 as const }],
      retry: { schedule: [0, 0.05, 0.05], jitter: 0 },
    };
    let send: (
      method: string,
      url: string,
      body?: unknown,
    ) => Promise<{ status: number; json: Record<string, unknown> }>;

    beforeAll(async () => {
      store = await open();
      const core = createCore({ store, keyring, webhooks });
      await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
      send = async (method, url, body) => {
        const response = await core.handle({
          method,
          url,
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return {
          status: response.status,
          json: JSON.parse(response.body as string) as Record<string, unknown>,
        };
      };
    });
    afterAll(() => store?.close());

    it('starts a delivery within milliseconds of the event, woken by the database, not a poll', async () => {
      const transport = recordingTransport();
      const engine = createDeliveryEngine({
        store: store as LatchkeyStore,
        keyring,
        webhooks,
        transport,
        pollIntervalMs: 60_000,
      });
      const created = await send('POST', HOOKS, { name: 'fast', url: 'https://hooks.example.com/fast' });
      expect(created.status).toBe(201);
      engine.start();
      await until(() => transport.ids.length === 1);
      // The engine now sleeps for a minute unless woken.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const project = await send('POST', '/api/v2/organizations/acme/projects', { slug: `p${Date.now()}` });
      expect(project.status).toBe(201);
      const waited = await until(() => transport.ids.length === 2);
      console.log(`${name}: delivery started ${waited} ms after the event was committed`);
      expect(waited).toBeLessThan(2_000);
      await engine.stop();
      await send('POST', `${HOOKS}/${created.json['id']}/disable`);
    });

    it('retries through SQL, dead-letters, holds, and releases on enable', async () => {
      let failing = true;
      const transport = recordingTransport(() => (failing ? 500 : 200));
      const engine = createDeliveryEngine({
        store: store as LatchkeyStore,
        keyring,
        webhooks,
        transport,
        pollIntervalMs: 20,
      });
      const created = await send('POST', HOOKS, { name: 'flaky', url: 'https://hooks.example.com/flaky' });
      const id = created.json['id'] as string;
      engine.start();
      await until(async () => (await send('GET', `${HOOKS}/${id}`)).json['status'] === 'dead_letter');
      expect((await send('GET', `${HOOKS}/${id}`)).json).toMatchObject({
        consecutive_failures: 3,
        last_error: { code: 'http_status' },
      });
      await send('POST', '/api/v2/organizations/acme/projects', { slug: `held${Date.now()}` });
      const attemptsBefore = transport.ids.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(transport.ids.length).toBe(attemptsBefore);
      failing = false;
      expect((await send('POST', `${HOOKS}/${id}/enable`)).status).toBe(200);
      // Held: the creation event, the dead-letter event and the project; then the enable event.
      await until(() => transport.ids.length >= attemptsBefore + 4);
      await until(async () => (await send('GET', `${HOOKS}/${id}`)).json['consecutive_failures'] === 0);
      await engine.stop();
      const metrics = (await send('GET', `${HOOKS}/metrics`)).json as { webhooks: Record<string, unknown>[] };
      expect(metrics.webhooks.find((w) => w['id'] === id)).toMatchObject({
        attempted: 7,
        failed: 3,
        succeeded: 4,
      });
      await send('POST', `${HOOKS}/${id}/disable`);
    });

    it('lets two engines share one outbox: every event once, none twice', async () => {
      const transport = recordingTransport();
      const created = await send('POST', HOOKS, { name: 'shared', url: 'https://hooks.example.com/shared' });
      for (let i = 0; i < 40; i++)
        await send('POST', '/api/v2/organizations/acme/projects', { slug: `s${i}x${Date.now()}` });
      const engines = [1, 2].map(() =>
        createDeliveryEngine({
          store: store as LatchkeyStore,
          keyring,
          webhooks,
          transport,
          batchSize: 5,
          concurrency: 2,
          pollIntervalMs: 20,
        }),
      );
      for (const engine of engines) engine.start();
      await until(() => transport.ids.length >= 41);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await Promise.all(engines.map((engine) => engine.stop()));
      expect(transport.ids.length).toBe(41);
      expect(new Set(transport.ids).size).toBe(41);
      expect(engines.every((engine) => engine.counts.delivered > 0)).toBe(true);
      await send('POST', `${HOOKS}/${created.json['id']}/disable`);
    });
  });
}

describeEngineOn('PGlite', async () => createPostgresStore({ driver: await freshPglite() }));
onPostgres('delivery engine on PostgreSQL', () => {
  describeEngineOn('PostgreSQL', () => postgresStore());
});
