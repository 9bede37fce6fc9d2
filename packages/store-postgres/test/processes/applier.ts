/**
 * A second app instance racing on one key through `core.handle`: at each round's instant it either
 * applies an approved change request or sends a bypass push with the round's `if_version`. Prints
 * one JSON line per round: `{round, kind, status, code?, conflicts?, event_id?}`.
 *
 * Env: TOKEN, DEVICE_ID, PRIVATE_KEY (PKCS#8 PEM), KEYRING, ROUNDS (JSON: `[{round, apply} |
 * {round, push: if_version}]`), START_AT and GAP_MS (round r starts at START_AT + r * GAP_MS), and
 * the store's (see store-from-env.ts).
 */
import { createPrivateKey } from 'node:crypto';
import { createCore, signPush } from '@latchkey/core';
import { waitUntil } from './spawn.js';
import { storeFromEnv } from './store-from-env.js';

const env = process.env as Record<string, string>;
const ENV_PATH = '/api/v2/organizations/acme/projects/web/environments/prod';
const address = { organization: 'acme', project: 'web', environment: 'prod' };
const privateKey = createPrivateKey(env['PRIVATE_KEY']!);
const rounds = JSON.parse(env['ROUNDS']!) as { round: number; apply?: string; push?: number }[];

const store = await storeFromEnv();
const core = createCore({ store, keyring: env['KEYRING'] });
const send = (url: string, body?: unknown) =>
  core.handle({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${env['TOKEN']}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

for (const { round, apply, push } of rounds) {
  const body =
    push === undefined
      ? undefined
      : signPush(
          {
            device_id: env['DEVICE_ID']!,
            bypass_reason: `race round ${round}`,
            changes: [{ key: 'RACE', value: `push-${round}`, if_version: push }],
          },
          address,
          privateKey,
        );
  await waitUntil(Number(env['START_AT']) + round * Number(env['GAP_MS']));
  const response = await (apply
    ? send(`${ENV_PATH}/change-requests/${apply}/apply`)
    : send(`${ENV_PATH}/push`, body));
  const answer = JSON.parse(response.body as string);
  const line = {
    round,
    kind: apply ? 'apply' : 'push',
    status: response.status,
    ...(response.status === 200
      ? { event_id: answer.event_id }
      : { code: answer.error?.code, conflicts: answer.conflicts }),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
await store.close();
