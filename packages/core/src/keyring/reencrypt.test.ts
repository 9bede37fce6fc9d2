/**
 * Encryption at rest of secret values and signing secrets, over the API: with a keyring, the store
 * holds only sealed values bound to their place, pulls read them back, and the re-encrypt routine
 * moves everything to a new current key (sealing values stored before there was a keyring), after
 * which the old key can leave the ring.
 */
import { describe, expect, it } from 'vitest';
import { generateDeviceKeyPair, signPush } from '../client/push.js';
import { createCore } from '../core.js';
import { createMemoryStore } from '../memory/index.js';
import type { LatchkeyStore } from '../store/types.js';
import { secretContext } from './contexts.js';
import { generateKeyringKey, open, parseKeyring, sealedKeyId } from './keyring.js';

const TOKEN = 'lk_reencrypt_test_token_00000000000000000000';
const ORG = '/api/v2/organizations/acme';
const ENV = `${ORG}/projects/web/environments/prod`;
const address = { organization: 'acme', project: 'web', environment: 'prod' };
const K1 = `k1:${generateKeyringKey()}`;
const K2 = `k2:${generateKeyringKey()}`;

/** A core on `store` with `keyring`; the first one bootstraps acme with a project, environment and device. */
async function serve(store: LatchkeyStore, keyring?: string) {
  const core = createCore({ store, logger: { error: () => {} }, ...(keyring ? { keyring } : {}) });
  const send = async (method: string, url: string, body?: unknown) => {
    const response = await core.handle({
      method,
      url,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      body: response.body as string,
      json: JSON.parse(response.body as string),
    };
  };
  return { core, send };
}

async function setUp(keyring?: string) {
  const store = createMemoryStore();
  const first = await serve(store, keyring);
  await first.core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  expect((await first.send('POST', `${ORG}/projects`, { slug: 'web' })).status).toBe(201);
  expect((await first.send('POST', `${ORG}/projects/web/environments`, { slug: 'prod' })).status).toBe(201);
  const keys = generateDeviceKeyPair();
  const device = await first.send('POST', `${ORG}/devices`, { name: 'laptop', public_key: keys.publicKey });
  const push = (send: typeof first.send, changes: { key: string; value?: string; delete?: true }[]) =>
    send('POST', `${ENV}/push`, signPush({ device_id: device.json.id, changes }, address, keys.privateKey));
  return { store, push, ...first };
}

const pull = async (send: (method: string, url: string) => Promise<{ json: unknown }>) =>
  Object.fromEntries(
    ((await send('GET', `${ENV}/secrets`)).json as { secrets: { key: string; value: string }[] }).secrets.map(
      (s) => [s.key, s.value],
    ),
  );

const stored = async (store: LatchkeyStore) => await store.secrets.scanValues(null, 1000);

describe('secret values at rest', () => {
  it('are sealed in the store with a keyring, bound to their key, and read back by a pull', async () => {
    const { store, send, push } = await setUp(K1);
    expect(
      (
        await push(send, [
          { key: 'DB_URL', value: 'postgres://s3cret' },
          { key: 'API', value: 'tok' },
        ])
      ).status,
    ).toBe(200);
    const rows = await stored(store);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(sealedKeyId(row.value)).toBe('k1');
      expect(row.value).not.toContain('s3cret');
      expect(row.value).not.toContain('tok');
    }
    expect(await pull(send)).toEqual({ API: 'tok', DB_URL: 'postgres://s3cret' });
    // Someone with the database swaps two sealed values: neither opens, and nothing leaks.
    const [api, db] = rows;
    await store.secrets.replaceValues([
      { environmentId: api!.environmentId, key: api!.key, from: api!.value, to: db!.value },
    ]);
    const refused = await send('GET', `${ENV}/secrets`);
    expect(refused.status).toBe(500);
    expect(refused.body).not.toContain('s3cret');
    expect(refused.body).not.toContain(db!.value);
  });

  it('are stored as sent without a keyring, and a keyring added later still reads them', async () => {
    const { store, send, push } = await setUp();
    expect((await push(send, [{ key: 'OLD', value: 'plain' }])).status).toBe(200);
    expect((await stored(store))[0]!.value).toBe('plain');
    const later = await serve(store, K1);
    expect(await pull(later.send)).toEqual({ OLD: 'plain' });
  });
});

describe('the re-encrypt routine', () => {
  it('moves every sealed value to the current key, seals plain ones, and then the old key can go', async () => {
    const { store, send, push } = await setUp();
    await push(send, [{ key: 'LEGACY', value: 'from-before-the-keyring' }]);
    const withK1 = await serve(store, K1);
    await push(withK1.send, [
      { key: 'A', value: 'alpha' },
      { key: 'B', value: 'beta' },
      { key: 'GONE', value: 'x' },
    ]);
    await push(withK1.send, [{ key: 'GONE', delete: true }]);
    const hook = await withK1.send('POST', `${ORG}/audit-webhooks`, {
      name: 'h',
      url: 'https://93.184.215.14/hook',
    });
    expect(hook.status).toBe(201);
    const keyed = await withK1.send('POST', `${ORG}/audit-webhooks`, {
      name: 'ed25519',
      url: 'https://93.184.215.14/ed',
      signature_scheme: 'standard-webhooks-ed25519',
    });
    expect(keyed.status).toBe(201);

    const rotated = await serve(store, `${K2},${K1}`);
    const progress: number[] = [];
    const counts = await rotated.core.reencrypt({
      batchSize: 2,
      onProgress: (c) => progress.push(c.secretValues.examined),
    });
    expect(counts).toEqual({
      signingSecrets: { examined: 2, resealed: 2 },
      webhookCredentials: { examined: 0, resealed: 0 },
      secretValues: { examined: 3, resealed: 3 },
      // LEGACY, A, B and GONE's first version keep values; GONE's tombstone has none.
      versionValues: { examined: 4, resealed: 4 },
      signingKeys: { examined: 1, resealed: 1 },
    });
    expect(progress).toEqual([0, 2, 3, 3, 3]);
    for (const row of await stored(store)) expect(sealedKeyId(row.value)).toBe('k2');
    const versionValues = await store.secrets.scanVersionValues(null, 100);
    expect(versionValues).toHaveLength(4);
    for (const row of versionValues) expect(sealedKeyId(row.value)).toBe('k2');
    const [webhook] = await store.auditWebhooks.list((await store.organizations.getBySlug('acme'))!.id);
    expect(webhook!.name).toBe('h');
    expect(sealedKeyId(webhook!.secret_sealed)).toBe('k2');

    // Again: nothing left to move.
    expect(await rotated.core.reencrypt()).toEqual({
      signingSecrets: { examined: 2, resealed: 0 },
      webhookCredentials: { examined: 0, resealed: 0 },
      secretValues: { examined: 3, resealed: 0 },
      versionValues: { examined: 4, resealed: 0 },
      signingKeys: { examined: 1, resealed: 0 },
    });
    const organizationId = (await store.organizations.getBySlug('acme'))!.id;
    const [signingKey] = await store.webhookSigningKeys.list(organizationId);
    expect(sealedKeyId(signingKey!.private_key_sealed)).toBe('k2');
    const onlyK2 = await serve(store, K2);
    expect(await pull(onlyK2.send)).toEqual({ A: 'alpha', B: 'beta', LEGACY: 'from-before-the-keyring' });
    expect(open(parseKeyring(K2), webhook!.secret_sealed, secretContext(hook.json.id))).toBe(
      hook.json.signing_secret,
    );
  });

  it('needs a keyring', async () => {
    const { core } = await setUp();
    await expect(core.reencrypt()).rejects.toThrow(/keyring/);
  });
});
