/** An example server on a PGlite directory: its data outlives a restart and follows a key rotation. */
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDeviceKeyPair, generateKeyringKey, signPush } from '@latchkey/core';
import { expect, it } from 'vitest';
import { sendJsonAs, EXAMPLE_TOKEN as TOKEN } from './client.js';
import { type StartedExample, startExample, startExampleFailure, stopExample } from './start-example.js';

const ENVS = '/api/v2/organizations/acme/projects/kept/environments';

/** Creates project `kept` with one pushed secret, then stops the server with SIGTERM. */
async function pushAndStop(first: StartedExample): Promise<void> {
  const json = sendJsonAs(() => first.url, TOKEN);
  const send = (path: string, body?: unknown) => json(body === undefined ? 'GET' : 'POST', path, body);
  expect((await send('/api/v2/organizations/acme/projects', { slug: 'kept' })).status).toBe(201);
  expect((await send(ENVS, { slug: 'prod' })).status).toBe(201);
  const keys = generateDeviceKeyPair();
  const device = (await (
    await send('/api/v2/organizations/acme/devices', { name: 'laptop', public_key: keys.publicKey })
  ).json()) as { id: string };
  const push = signPush(
    { device_id: device.id, changes: [{ key: 'KEPT', value: 'sealed-at-rest' }] },
    { organization: 'acme', project: 'kept', environment: 'prod' },
    keys.privateKey,
  );
  expect((await send(`${ENVS}/prod/push`, push)).status).toBe(200);
  const exited = once(first.child, 'exit');
  first.child.kill('SIGTERM');
  expect((await exited)[0]).toBe(0);
}

/** Checks that the restarted server still serves project `kept` and its secret. */
async function expectKept(second: StartedExample): Promise<void> {
  const read = (path: string) =>
    fetch(`${second.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.json());
  expect(await read('/api/v2/organizations/acme/projects')).toMatchObject({
    projects: [{ slug: 'kept' }],
  });
  expect(await read(`${ENVS}/prod/secrets`)).toMatchObject({
    secrets: [{ key: 'KEPT', value: 'sealed-at-rest', version: 1 }],
  });
}

/** Registers the PGlite persistence test of the example `name`. */
export function describePersistence(name: string): void {
  it('keeps its data in a PGlite directory across a restart, and moves it to a rotated key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-example-'));
    const env = { PORT: '0', LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN, LATCHKEY_STORE: join(dir, 'data') };
    try {
      const first = await startExample(name, env, 'bundle');
      expect(first.output()).toContain(`store: PGlite in ${join(dir, 'data')}`);
      await pushAndStop(first);
      // Rotate: a new key first, the one made on first start (beside the data) after it.
      const keyring = `k2:${generateKeyringKey()},${readFileSync(join(dir, 'keyring.txt'), 'utf8').trim()}`;
      const second = await startExample(name, { ...env, LATCHKEY_KEYRING: keyring }, 'bundle');
      try {
        // The key's head and its version 1, whose value is kept too: two sealed values.
        expect(second.output()).toContain('keyring: 2 values moved to the current key');
        await expectKept(second);
      } finally {
        await stopExample(second.child, 'SIGKILL');
      }
      // keyring.txt deleted (and no LATCHKEY_KEYRING): it refuses, rather than make a key that
      // would not open the data, and names the key id the data needs.
      rmSync(join(dir, 'keyring.txt'));
      const refused = await startExampleFailure(name, env);
      expect(refused?.code).toBe(1);
      expect(refused?.output).toMatch(/keyring\.txt is missing, and the data was sealed with key id "k2"/);
      expect(refused?.output).not.toMatch(/^\s+at /m);
      expect(existsSync(join(dir, 'keyring.txt'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
}
