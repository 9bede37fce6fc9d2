/**
 * Backups taken while pushes land, on real PostgreSQL: two pushers change, add and delete keys of
 * an environment of 2,500 keys without pause while backups are read slowly (their keys, deleted
 * keys and versions span several pages each). Each backup is read in one snapshot, so every one
 * restores: no version above its key's head, no key both live and deleted, a history that ends at
 * the head it names. Pushes did land while each backup was read.
 */
import { createPrivateKey } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { signPush } from '@latchkey/core';
import { manifestOf, partsOf } from '@latchkey/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type Acme, setUpAcme, TOKEN } from './acme.js';
import { postgresStore, postgresUnavailable } from './databases.js';

const ENV = '/api/v2/organizations/acme/projects/web/environments/prod';
const KEYS = 2_500;
const key = (i: number) => `K${String(i).padStart(4, '0')}`;

/** `core.handle` as the owner (or `token`), JSON in and out. */
function caller(acme: Acme) {
  return async (method: string, url: string, body?: unknown, token = TOKEN) => {
    const response = await acme.core.handle({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response;
  };
}

describe.skipIf(postgresUnavailable !== null)('backups racing pushes (real PostgreSQL)', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('reads each backup in one snapshot: every backup taken while pushes land restores', async () => {
    const store = await postgresStore();
    closers.push(() => store.close());
    const acme = await setUpAcme(store);
    const call = caller(acme);
    const privateKey = createPrivateKey(acme.deviceEnv.PRIVATE_KEY);
    type Change = { key: string; value?: string; delete?: true };
    const push = async (changes: Change[]) => {
      const body = signPush(
        { device_id: acme.deviceEnv.DEVICE_ID, changes },
        { organization: 'acme', project: 'web', environment: 'prod' },
        privateKey,
      );
      const answer = await call('POST', `${ENV}/push`, body);
      expect(answer.status, answer.body as string).toBe(200);
    };
    for (let from = 0; from < KEYS; from += 1_000) {
      await push(
        Array.from({ length: Math.min(1_000, KEYS - from) }, (_, i) => ({ key: key(from + i), value: 'v0' })),
      );
    }

    // Two pushers: each round sets 40 keys spread over the whole range, deletes one, revives one.
    let racing = true;
    let pushes = 0;
    const pusher = async (side: number) => {
      for (let round = 0; racing; round++) {
        const offset = (round * 37 + side * 500) % KEYS;
        const changes: Change[] = Array.from({ length: 40 }, (_, i) => ({
          key: key((offset + i * 61) % KEYS),
          value: `s${side}r${round}`,
        }));
        changes.push({ key: key((offset + 7) % KEYS), delete: true });
        changes.push({ key: `NEW_${side}_${round}`, value: 'new' });
        const unique = [...new Map(changes.map((c) => [c.key, c])).values()];
        await push(unique);
        pushes++;
      }
    };
    const pushers = [pusher(0), pusher(1)];

    const backups: string[] = [];
    for (let b = 0; b < 3; b++) {
      const before = pushes;
      const answer = await call('GET', '/api/v2/organizations/acme/backup');
      expect(answer.status).toBe(200);
      let content = '';
      // Read slowly, as a client over a slow link would: the pushers go on meanwhile.
      for await (const chunk of answer.body as AsyncIterable<string | Uint8Array>) {
        content += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        await sleep(15);
      }
      expect(pushes - before, 'pushes landed while the backup was read').toBeGreaterThan(2);
      backups.push(content);
    }
    racing = false;
    await Promise.all(pushers);

    // Each restores, whole, into an organization of its own.
    for (const [i, content] of backups.entries()) {
      const slug = `copy-${i}`;
      const token = `${TOKEN.slice(0, -2)}c${i}`;
      await acme.core.bootstrap({ organization: slug, user: 'admin', token });
      const manifest = manifestOf(content);
      expect(manifest.counts['secret_version']).toBeGreaterThanOrEqual(KEYS);
      const base = `/api/v2/organizations/${slug}/restores`;
      const begun = await call('POST', base, { manifest }, token);
      expect(begun.status, begun.body as string).toBe(201);
      const { id } = JSON.parse(begun.body as string) as { id: string };
      for (const [n, data] of partsOf(content).entries()) {
        expect((await call('PUT', `${base}/${id}/parts/${n}`, { data }, token)).status).toBe(200);
      }
      const committed = await call('POST', `${base}/${id}/commit`, undefined, token);
      expect(committed.status, committed.body as string).toBe(200);
    }
  }, 240_000);
});
