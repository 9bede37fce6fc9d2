/**
 * A keyring bound to its data, on every store: instances sharing one database refuse a keyring that
 * lacks a key id the data was sealed with or holds another key under a recorded id (each naming the
 * ids in one line, never key material), one of two instances starting together with their own `k1`
 * wins, and a value sealed with a key another instance rotated to is a 503 with Retry-After, logged
 * once per key id, whose deliveries wait rather than dead-letter.
 */
import {
  type Core,
  createCore,
  generateDeviceKeyPair,
  generateKeyringKey,
  KeyringMismatchError,
  type LatchkeyStore,
  signPush,
} from '@latchkey/core';
import { createDeliveryEngine } from '@latchkey/core/webhooks';
import { afterEach, describe, expect, it } from 'vitest';

/** One database several instances can open, each with its own connection where the store has them. */
export interface SharedDatabase {
  /** A store on the database, as another instance would open it. */
  connect(): Promise<LatchkeyStore>;
  /** Closes every store it handed out and removes the database. */
  close(): Promise<void>;
}

export interface KeyringBindingOptions {
  name: string;
  /** A new, empty database. */
  database: () => Promise<SharedDatabase>;
}

const TOKEN = 'lk_keyring_binding_test_token_000000000000000';
const ORG = '/api/v2/organizations/acme';
const ENV = `${ORG}/projects/web/environments/prod`;
const address = { organization: 'acme', project: 'web', environment: 'prod' };
const webhooks = { resolve: async () => [{ address: '93.184.215.14', family: 4 as const }] };

interface Instance {
  core: Core;
  logged: string[];
  send(
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; headers: Record<string, string>; body: string }>;
}

function instance(store: LatchkeyStore, keyring?: string): Instance {
  const logged: string[] = [];
  const core = createCore({
    store,
    webhooks,
    logger: { error: (message) => logged.push(message) },
    ...(keyring ? { keyring } : {}),
  });
  return {
    core,
    logged,
    async send(method, url, body) {
      const response = await core.handle({
        method,
        url,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, headers: response.headers, body: String(response.body) };
    },
  };
}

/** Bootstraps acme with project web, environment prod and a device; returns a signed-push helper. */
async function organization(first: Instance) {
  await first.core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  expect((await first.send('POST', `${ORG}/projects`, { slug: 'web' })).status).toBe(201);
  expect((await first.send('POST', `${ORG}/projects/web/environments`, { slug: 'prod' })).status).toBe(201);
  const keys = generateDeviceKeyPair();
  const device = JSON.parse(
    (await first.send('POST', `${ORG}/devices`, { name: 'laptop', public_key: keys.publicKey })).body,
  ) as { id: string };
  return (by: Instance, changes: { key: string; value: string }[]) =>
    by.send('POST', `${ENV}/push`, signPush({ device_id: device.id, changes }, address, keys.privateKey));
}

const refusal = async (core: Core) => {
  const error = await core.verifyKeyring().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KeyringMismatchError);
  return error as KeyringMismatchError;
};

export function describeKeyringBinding({ name, database }: KeyringBindingOptions): void {
  describe(`a keyring bound to its data: ${name}`, () => {
    let db: SharedDatabase | undefined;
    const open = async () => {
      db = await database();
      return db;
    };
    afterEach(async () => {
      await db?.close();
      db = undefined;
    });

    missingKeyTests(open);

    rotationTests(open);
  });
}

/** A keyring that lacks a key id the data was sealed with, or holds another key under one. */
function missingKeyTests(open: () => Promise<SharedDatabase>): void {
  it('refuses to start without a key id the data was sealed with, naming it in one line', async () => {
    const shared = await open();
    const k1 = generateKeyringKey();
    const first = instance(await shared.connect(), `k1:${k1}`);
    const push = await organization(first);
    expect((await push(first, [{ key: 'API', value: 'kept' }])).status).toBe(200);

    // keyring.txt deleted, or PostgreSQL without LATCHKEY_KEYRING: no keyring, or a new one.
    const k9 = generateKeyringKey();
    for (const keyring of [undefined, `k9:${k9}`]) {
      const later = instance(await shared.connect(), keyring);
      const error = await refusal(later.core);
      expect(error.message).toMatch(/^keyring: .*key id "k1", which this keyring lacks.*$/);
      expect(error.message).not.toMatch(/\n/);
      expect(error.check).toMatchObject({ status: 'fail', missing: ['k1'], mismatched: [] });
      for (const key of [k1, k9]) expect(error.message).not.toContain(key);
      // Meanwhile every request that needs the store is refused (never served with the wrong key).
      for (let n = 0; n < 2; n++) {
        const answer = await later.send('GET', `${ENV}/secrets`);
        expect(answer.status).toBe(503);
        expect(answer.headers['retry-after']).toBe('60');
        expect(JSON.parse(answer.body)).toMatchObject({
          error: { code: 'service_unavailable', status: 503 },
        });
      }
      expect(later.logged).toHaveLength(1);
      expect(later.logged[0]).toContain('"k1"');
      expect(await later.core.ready()).toMatchObject({
        status: 'unavailable',
        checks: { keyring: { status: 'fail', missing: ['k1'] } },
      });
      // Nothing was recorded for the refused keyring.
      expect((await first.core.ready()).checks.keyring.key_ids).toEqual(['k1']);
    }
    expect(await first.core.ready()).toEqual({
      status: 'ready',
      checks: {
        store: { status: 'ok', latency_ms: expect.any(Number) },
        migrations: expect.objectContaining({ status: 'ok' }),
        keyring: { status: 'ok', key_ids: ['k1'], missing: [], mismatched: [] },
        deliveries: { status: 'ok', engine: 'off' },
      },
    });
    // The right keyring still opens everything.
    const again = instance(await shared.connect(), `k1:${k1}`);
    await again.core.verifyKeyring();
    expect(JSON.parse((await again.send('GET', `${ENV}/secrets`)).body)).toMatchObject({
      secrets: [{ key: 'API', value: 'kept' }],
    });
  });

  it('refuses another key under a recorded id: two instances on one database, each with its own k1', async () => {
    const shared = await open();
    const [mine, theirs] = [generateKeyringKey(), generateKeyringKey()];
    const first = instance(await shared.connect(), `k1:${mine}`);
    await first.core.verifyKeyring();
    const second = instance(await shared.connect(), `k1:${theirs}`);
    const error = await refusal(second.core);
    expect(error.check).toMatchObject({ missing: [], mismatched: ['k1'] });
    expect(error.message).toMatch(/^keyring: this keyring's key "k1" is not the one/);
    for (const key of [mine, theirs]) expect(error.message).not.toContain(key);
    // Not even with the right key added under another id: k1 is still the wrong one.
    const mixed = instance(await shared.connect(), `k2:${mine},k1:${theirs}`);
    expect((await refusal(mixed.core)).check.mismatched).toEqual(['k1']);
  });
}

/** Two instances starting together, and a value sealed with a key another instance rotated to. */
function rotationTests(open: () => Promise<SharedDatabase>): void {
  it('lets one of two instances starting together with their own k1 win, and refuses the other', async () => {
    const shared = await open();
    const [a, b] = await Promise.all([shared.connect(), shared.connect()]);
    const results = await Promise.allSettled([
      instance(a, `k1:${generateKeyringKey()}`).core.verifyKeyring(),
      instance(b, `k1:${generateKeyringKey()}`).core.verifyKeyring(),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toBeInstanceOf(KeyringMismatchError);
  });

  it('answers 503 with Retry-After for a value sealed with a key another instance rotated to, logged once', async () => {
    const shared = await open();
    const K1 = `k1:${generateKeyringKey()}`;
    const old = instance(await shared.connect(), K1);
    const push = await organization(old);
    expect((await push(old, [{ key: 'A', value: 'under-k1' }])).status).toBe(200);
    const rotated = instance(await shared.connect(), `k2:${generateKeyringKey()},${K1}`);
    expect((await push(rotated, [{ key: 'B', value: 'under-k2' }])).status).toBe(200);
    for (let n = 0; n < 3; n++) {
      const answer = await old.send('GET', `${ENV}/secrets`);
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('30');
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: 'service_unavailable', message: expect.any(String), status: 503 },
      });
      expect(answer.body).not.toContain('under-k');
    }
    expect(old.logged).toHaveLength(1);
    expect(old.logged[0]).toMatch(/key id "k2", which this keyring lacks/);
    expect(await old.core.ready()).toMatchObject({
      status: 'unavailable',
      checks: { keyring: { status: 'fail', missing: ['k2'] } },
    });
    expect(JSON.parse((await rotated.send('GET', `${ENV}/secrets`)).body)).toMatchObject({
      secrets: [
        { key: 'A', value: 'under-k1' },
        { key: 'B', value: 'under-k2' },
      ],
    });
  });

  it('leaves a delivery whose signing secret it cannot open for an engine with the key, never dead-lettered', async () => {
    const shared = await open();
    const K1 = `k1:${generateKeyringKey()}`;
    const old = instance(await shared.connect(), K1);
    await old.core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    await old.core.verifyKeyring();
    const rotated = instance(await shared.connect(), `k2:${generateKeyringKey()},${K1}`);
    const created = await rotated.send('POST', `${ORG}/audit-webhooks`, {
      name: 'siem',
      url: 'https://hooks.example.com/in',
    });
    expect(created.status).toBe(201);
    const sent: string[] = [];
    const logged: string[] = [];
    const store = await shared.connect();
    const engine = createDeliveryEngine({
      store,
      keyring: K1,
      webhooks: { ...webhooks, retry: { schedule: [0], jitter: 0 } },
      transport: {
        async send({ url }) {
          sent.push(url);
          return { ok: false, statusCode: 500, latencyMs: 1, error: null, retryAfterSeconds: null };
        },
        async close() {},
      },
      logger: { error: (message) => logged.push(message) },
    });
    expect(await engine.runOnce()).toBe(1);
    expect(sent).toEqual([]);
    expect(engine.counts).toMatchObject({ deferred: 1, dead_letter: 0, retry: 0, failed: 0 });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/key id "k2", which this keyring lacks/);
    const id = (JSON.parse(created.body) as { id: string }).id;
    const webhook = JSON.parse((await rotated.send('GET', `${ORG}/audit-webhooks/${id}`)).body);
    expect(webhook).toMatchObject({ status: 'active' });
    const orgId = (await store.organizations.getBySlug('acme'))!.id;
    expect(await store.deliveries.count(orgId, id, 'pending')).toBe(1);
    expect((await store.deliveries.attempts(orgId, id, { limit: 10 })).attempts).toEqual([]);
  });
}
