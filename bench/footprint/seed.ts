/**
 * The existing data directory of the footprint benchmark, built once and reused: organization
 * `acme` with 10,000 secrets (100 signed pushes of 100 keys) and 100,000 more events sealed onto its
 * chain straight into the tables (the restore's verbatim append, as `bench/export` seeds), then
 * opened once more so the start-up back-fill has nothing left to do. With `keyring.txt` and
 * `audit-key.pem` beside it, as the examples keep them.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createCore,
  generateAuditKey,
  generateDeviceKeyPair,
  generateKeyringKey,
  signPush,
} from '@latchkey/core';
import { type ActivityEvent, type ChainHead, sealEvent } from '@latchkey/core/store';
import { createPostgresStore } from '@latchkey/store-postgres';
import { pgliteDriver } from '@latchkey/store-postgres/pglite';
import { coreCaller } from '../core-call.js';
import { TOKEN } from './workload.js';

export const SEED = { secrets: 10_000, events: 100_000 };
const ORG = '/api/v2/organizations/acme';

/** Builds the seeded directory under `root` unless it is there; returns its `data` folder. */
export async function seededDirectory(root: string, log: (line: string) => void): Promise<string> {
  const data = join(root, 'data');
  if (existsSync(join(root, 'done'))) return data;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const keyring = `k1:${generateKeyringKey()}`;
  const audit = generateAuditKey();
  writeFileSync(join(root, 'keyring.txt'), `${keyring}\n`, { mode: 0o600 });
  writeFileSync(join(root, 'audit-key.pem'), audit.privateKeyPem, { mode: 0o600 });
  const store = await createPostgresStore({ driver: await pgliteDriver(data) });
  const core = createCore({ store, keyring, auditKey: audit.privateKeyPem });
  const send = coreCaller(core, TOKEN);
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await send(method, url, body);
    return typeof response.body === 'string' ? JSON.parse(response.body) : null;
  };
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  await call('POST', `${ORG}/projects`, { slug: 'web' });
  await call('POST', `${ORG}/projects/web/environments`, { slug: 'prod' });
  const keys = generateDeviceKeyPair();
  const device = await call('POST', `${ORG}/devices`, { name: 'seed', public_key: keys.publicKey });
  for (let push = 0; push < SEED.secrets / 100; push++) {
    const changes = Array.from({ length: 100 }, (_, i) => ({
      key: `SEED_${push}_${i}`,
      value: `seed-value-${push}-${i}-0123456789abcdef`,
      if_version: 0,
    }));
    const body = signPush(
      { device_id: device.id, changes },
      { organization: 'acme', project: 'web', environment: 'prod' },
      keys.privateKey,
    );
    await call('POST', `${ORG}/projects/web/environments/prod/push`, body);
  }
  log(`seed: ${SEED.secrets} secrets pushed`);
  const org = (await store.organizations.getBySlug('acme'))!;
  const [last] = await store.activity.list({ organizationId: org.id, limit: 1 });
  let head: ChainHead = { seq: last!.seq, hash: last!.hash };
  for (let start = 0; start < SEED.events; start += 5_000) {
    const events: ActivityEvent[] = [];
    for (let i = start; i < start + 5_000; i++) {
      const event = sealEvent(
        {
          id: `evt_${i.toString(16).padStart(24, '0')}`,
          type: 'member_added',
          occurred_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
          organization: 'acme',
          actor: { type: 'user', id: `user-${i % 50}` },
          data: { user: `user-${i % 50}`, role: 'viewer' },
        },
        head,
      );
      events.push(event);
      head = { seq: event.seq, hash: event.hash };
    }
    await store.restores.insertEvents(org.id, events);
  }
  log(`seed: ${SEED.events} events appended`);
  await store.close();
  // Opened again: the start-up back-fill puts the appended events on the Merkle tree now, once.
  await (await createPostgresStore({ driver: await pgliteDriver(data) })).close();
  writeFileSync(join(root, 'done'), new Date().toISOString());
  log('seed: done');
  return data;
}
