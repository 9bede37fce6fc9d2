/** Organization acme with project web, environment prod and one enrolled device of its owner, on a given store. */
import {
  type Core,
  createCore,
  generateAuditKey,
  generateDeviceKeyPair,
  generateKeyringKey,
  type LatchkeyStore,
} from '@latchkey/core';
import { expect } from 'vitest';

export const TOKEN = 'lk_store_postgres_process_test_token_0000000';

export interface Acme {
  core: Core;
  /** Environment variables a pusher process needs: the device, and the keyring the data was sealed with. */
  deviceEnv: { TOKEN: string; DEVICE_ID: string; PRIVATE_KEY: string; KEYRING: string };
  environmentId: string;
  organizationId: string;
  /** The raw public key of the core's audit key, to verify exports with. */
  auditPublicKey: string;
}

/** The keyring acme's core seals with (text form), so a test can rotate from it. */
export const acmeKeyring = `k1:${generateKeyringKey()}`;

export async function setUpAcme(store: LatchkeyStore): Promise<Acme> {
  const audit = generateAuditKey();
  const core = createCore({
    store,
    auditKey: audit.privateKeyPem,
    keyring: acmeKeyring,
    // A receiver name the tests may register; no delivery leaves these tests.
    webhooks: { allowHosts: 'receiver.test', resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
  });
  const org = await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const send = async (url: string, body: unknown) => {
    const response = await core.handle({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(201);
    return JSON.parse(response.body as string) as { id: string };
  };
  await send('/api/v2/organizations/acme/projects', { slug: 'web' });
  const environment = await send('/api/v2/organizations/acme/projects/web/environments', { slug: 'prod' });
  const keys = generateDeviceKeyPair();
  const device = await send('/api/v2/organizations/acme/devices', { name: 'ci', public_key: keys.publicKey });
  return {
    core,
    organizationId: org.id,
    auditPublicKey: audit.publicKey,
    environmentId: environment.id,
    deviceEnv: {
      TOKEN,
      DEVICE_ID: device.id,
      PRIVATE_KEY: keys.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      // Another instance on the same data needs the keyring that sealed it, or it refuses to serve.
      KEYRING: acmeKeyring,
    },
  };
}

/**
 * The values acme's prod environment holds, by key, as a pull answers them: opened with the keyring
 * that sealed them, by a core of its own on `store` (a reopened store too).
 */
export async function pulledValues(store: LatchkeyStore): Promise<Record<string, string>> {
  const response = await createCore({ store, keyring: acmeKeyring }).handle({
    method: 'GET',
    url: '/api/v2/organizations/acme/projects/web/environments/prod/secrets',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  const { secrets } = JSON.parse(response.body as string) as { secrets: { key: string; value: string }[] };
  return Object.fromEntries(secrets.map((s) => [s.key, s.value]));
}
