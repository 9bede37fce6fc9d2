/**
 * The one scenario every server of the push benchmark answers: who pushes, where, and with which
 * credentials. The load generator signs its bodies with these, so the bare routes and the adapters
 * receive byte-identical requests.
 */
import { type Core, createCore, type PushAddress, randomId } from '@latchkey/core';

/** Where every push is addressed (part of the signed payload). */
export const ADDRESS: PushAddress = { organization: 'acme', project: 'web', environment: 'prod' };

/** The API token of the pushing member. The bare routes ignore it but receive it all the same. */
export const TOKEN = 'lk_bench_push_admin_token_000000000000000000';

/** The id the device gets in every adapter process, so one signed batch serves every server. */
export const DEVICE_ID = 'dev_benchpushdevice0001';

/** Path of the core's push route, and of the bare routes. */
export const ADAPTER_PATH = `/api/v2/organizations/${ADDRESS.organization}/projects/${ADDRESS.project}/environments/${ADDRESS.environment}/push`;
export const BARE_PATH = '/push';

/** Headers of every benchmark request. */
export const REQUEST_HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  authorization: `Bearer ${TOKEN}`,
};

/**
 * A core with the benchmark's organization, project, environment and enrolled device. Every id but
 * the device's is random, as in production.
 */
export async function createBenchCore(devicePublicKey: string): Promise<Core> {
  const core = createCore({
    ids: (prefix) => (prefix === 'dev' ? DEVICE_ID : randomId(prefix)),
    logger: { error: (message, meta) => console.error(`[latchkey] ${message}`, meta ?? '') },
  });
  await core.bootstrap({ organization: ADDRESS.organization, user: 'admin', token: TOKEN });
  const org = `/api/v2/organizations/${ADDRESS.organization}`;
  await call(core, `${org}/projects`, { slug: ADDRESS.project });
  await call(core, `${org}/projects/${ADDRESS.project}/environments`, { slug: ADDRESS.environment });
  const device = (await call(core, `${org}/devices`, { name: 'bench', public_key: devicePublicKey })) as {
    id: string;
  };
  if (device.id !== DEVICE_ID) throw new Error(`device enrolled as ${device.id}, expected ${DEVICE_ID}`);
  return core;
}

async function call(core: Core, url: string, body: unknown): Promise<unknown> {
  const response = await core.handle({
    method: 'POST',
    url,
    headers: REQUEST_HEADERS,
    body: JSON.stringify(body),
  });
  const text = typeof response.body === 'string' ? response.body : '';
  if (response.status >= 300) throw new Error(`setup POST ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}
