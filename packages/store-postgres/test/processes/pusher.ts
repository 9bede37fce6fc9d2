/**
 * A second app instance sending signed pushes through `core.handle`: each push pulls the keys, then
 * sets all of them to one new value with `if_version` = the versions it read. Prints one JSON line
 * per applied push (`{"value","versions","event_id"}`) and, at the end, a summary line.
 *
 * Env: TOKEN, DEVICE_ID, PRIVATE_KEY (PKCS#8 PEM), KEYRING (the text form acme's core sealed with),
 * KEYS (comma list), WORKER, COUNT (or none: no end), START_AT (ms), and the store's (see
 * store-from-env.ts).
 */
import { createPrivateKey } from 'node:crypto';
import { createCore, signPush } from '@latchkey/core';
import { waitUntil } from './spawn.js';
import { storeFromEnv } from './store-from-env.js';

const env = process.env as Record<string, string>;
const ENV_PATH = '/api/v2/organizations/acme/projects/web/environments/prod';
const address = { organization: 'acme', project: 'web', environment: 'prod' };
const keys = env['KEYS']!.split(',');
const count = env['COUNT'] ? Number(env['COUNT']) : Number.POSITIVE_INFINITY;
const privateKey = createPrivateKey(env['PRIVATE_KEY']!);

const store = await storeFromEnv();
const core = createCore({ store, keyring: env['KEYRING'] });
const send = (method: string, url: string, body?: unknown) =>
  core.handle({
    method,
    url,
    headers: { authorization: `Bearer ${env['TOKEN']}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

await waitUntil(Number(env['START_AT'] ?? 0));
let conflicts = 0;
const other: string[] = [];
for (let i = 0; i < count; i++) {
  const pulled = JSON.parse((await send('GET', `${ENV_PATH}/secrets`)).body as string) as {
    secrets: { key: string; version: number }[];
  };
  const versionOf = (key: string) => pulled.secrets.find((s) => s.key === key)?.version ?? 0;
  const value = `w${env['WORKER']}-${i}`;
  const push = signPush(
    {
      device_id: env['DEVICE_ID']!,
      changes: keys.map((key) => ({ key, value, if_version: versionOf(key) })),
    },
    address,
    privateKey,
  );
  const response = await send('POST', `${ENV_PATH}/push`, push);
  const body = JSON.parse(response.body as string);
  if (response.status === 200) {
    process.stdout.write(`${JSON.stringify({ value, versions: body.versions, event_id: body.event_id })}\n`);
  } else if (response.status === 409 && body.error.code === 'version_conflict') {
    conflicts++;
  } else {
    other.push(`${response.status} ${body.error?.code}`);
  }
}
process.stdout.write(`${JSON.stringify({ summary: { conflicts, other } })}\n`);
await store.close();
