/**
 * Encryption at rest on both engines, read with SQL as someone holding the database would: secret
 * values and signing secrets are ciphertext in their tables, and the re-encrypt routine moves them
 * to a new key through the SQL store's keyset walk.
 */
import { createPrivateKey } from 'node:crypto';
import { createCore, generateKeyringKey, signPush } from '@latchkey/core';
import { describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore, type SqlDriver, tablesOf } from '../src/index.js';
import { pgDriver } from '../src/pg.js';
import { acmeKeyring, setUpAcme, TOKEN } from './acme.js';
import { DATABASE_URL, dropSchema, freshSchema, onPostgres } from './databases.js';
import { freshPglite } from './fresh-pglite.js';

const VALUE = 'sk_live_visible_only_to_members';

/**
 * The key id a sealed value names, read as someone holding the database would: the at-rest form is
 * `lk1.<key id>.<nonce>.<ciphertext>` (core's keyring), so a changed form fails here too.
 */
function sealedKeyId(stored: string): string | null {
  const parts = stored.split('.');
  return parts.length === 4 && parts[0] === 'lk1' ? parts[1]! : null;
}

async function checkSealedAtRest(driver: SqlDriver, schema: string) {
  const store: PostgresStore = await createPostgresStore({ driver, schema });
  const acme = await setUpAcme(store);
  const send = async (method: string, url: string, body?: unknown) => {
    const response = await acme.core.handle({
      method,
      url,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: JSON.parse(response.body as string) };
  };
  const changes = Array.from({ length: 7 }, (_, i) => ({ key: `KEY_${i}`, value: `${VALUE}_${i}` }));
  const pushed = await send(
    'POST',
    '/api/v2/organizations/acme/projects/web/environments/prod/push',
    signPush(
      { device_id: acme.deviceEnv.DEVICE_ID, changes },
      { organization: 'acme', project: 'web', environment: 'prod' },
      createPrivateKey(acme.deviceEnv.PRIVATE_KEY),
    ),
  );
  expect(pushed.status).toBe(200);
  const hook = await send('POST', '/api/v2/organizations/acme/audit-webhooks', {
    name: 'siem',
    url: 'https://receiver.test/hook',
  });
  expect(hook.status).toBe(201);

  const t = tablesOf(schema);
  const raw = async () => ({
    values: (await driver.query<{ value: string }>(`SELECT value FROM ${t.secrets} WHERE value IS NOT NULL`))
      .rows,
    secrets: (await driver.query<{ secret_sealed: string }>(`SELECT secret_sealed FROM ${t.webhooks}`)).rows,
    versions: (
      await driver.query<{ value: string }>(`SELECT value FROM ${t.secretVersions} WHERE value IS NOT NULL`)
    ).rows,
  });
  const before = await raw();
  expect(before.values).toHaveLength(7);
  expect(before.versions).toHaveLength(7);
  for (const { value } of [...before.values, ...before.versions]) {
    expect(value).not.toContain(VALUE);
    expect(sealedKeyId(value)).toBe('k1');
  }
  expect(before.secrets[0]!.secret_sealed).not.toContain(hook.json.signing_secret);

  // Rotate: k2 current, k1 still in the ring; re-encrypt in pages of 3; then k1 can go.
  const k2 = `k2:${generateKeyringKey()}`;
  const rotated = createCore({ store, keyring: `${k2},${acmeKeyring}` });
  expect(await rotated.reencrypt({ batchSize: 3 })).toEqual({
    signingSecrets: { examined: 1, resealed: 1 },
    webhookCredentials: { examined: 0, resealed: 0 },
    secretValues: { examined: 7, resealed: 7 },
    versionValues: { examined: 7, resealed: 7 },
    signingKeys: { examined: 0, resealed: 0 },
  });
  const after = await raw();
  for (const { value } of [...after.values, ...after.versions]) expect(sealedKeyId(value)).toBe('k2');
  expect(sealedKeyId(after.secrets[0]!.secret_sealed)).toBe('k2');
  const onlyK2 = createCore({ store, keyring: k2 });
  const pulled = await onlyK2.handle({
    method: 'GET',
    url: '/api/v2/organizations/acme/projects/web/environments/prod/secrets',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(JSON.parse(pulled.body as string).secrets.map((s: { value: string }) => s.value)).toEqual(
    changes.map((c) => c.value),
  );
  await store.close();
}

describe('encryption at rest on PGlite', () => {
  it('keeps ciphertext in the tables and re-encrypts through the keyset walk', async () => {
    await checkSealedAtRest(await freshPglite(), 'latchkey');
  });
});

onPostgres('encryption at rest on PostgreSQL', () => {
  describe('encryption at rest on PostgreSQL', () => {
    it('keeps ciphertext in the tables and re-encrypts through the keyset walk', async () => {
      const schema = freshSchema();
      try {
        await checkSealedAtRest(await pgDriver(DATABASE_URL), schema);
      } finally {
        await dropSchema(schema);
      }
    });
  });
});
