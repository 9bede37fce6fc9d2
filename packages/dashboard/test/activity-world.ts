/**
 * The Activity page's browser tests stand on this: the Express example on a fresh PostgreSQL
 * database (keyring and audit key of its own), two projects with environments, a developer granted
 * one environment, and a history of thousands of events seeded straight into the events table:
 * sealed as the store seals them and written by the restore's own verbatim append, in batches, so
 * the chain is valid and a 5,000-event history takes a second, not a minute of pushes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ActivityEvent, generateAuditKey, generateKeyringKey } from '@latchkey/core';
import { type ChainHead, sealEvent } from '@latchkey/core/store';
import { createPostgresStore, type SqlDriver, tablesOf } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { startExample, stopExample } from '@latchkey/test-utils/spawn';

export const DATABASE_URL = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
export const ADMIN_TOKEN = 'lk_dashboard_activity_admin_token_00000000000';
const BATCH = 1_000;

/** The seeded history's types, by position: force-overwrites and conflicts among plain pushes. */
export function seededType(i: number): string {
  if (i % 10 === 3) return 'push_force_overwrite';
  if (i % 10 === 8) return 'push_conflict';
  return 'push_applied';
}

/** Where the i-th seeded event happened: one in five in project api, the rest in web's two environments. */
export function seededPlace(i: number): { project: string; environment: string } {
  if (i % 5 === 4) return { project: 'api', environment: 'prod' };
  return { project: 'web', environment: i % 2 ? 'prod' : 'staging' };
}

function seededData(i: number, type: string): Record<string, unknown> {
  if (type === 'push_force_overwrite') {
    return {
      conflict_mode: 'lenient',
      keys: [
        { key: 'DB_URL', server_version: i, client_if_version: i - 1, new_version: i + 1, deleted: false },
      ],
    };
  }
  if (type === 'push_conflict') {
    return {
      conflict_mode: 'strict',
      conflicts: [{ key: 'DB_URL', server_version: i, client_if_version: i - 2 }],
    };
  }
  return { conflict_mode: 'lenient', versions: [{ key: `KEY_${i % 40}`, version: i, deleted: false }] };
}

/** Seals `count` events after `head` of organization `acme`, as a push would record them. */
export function* sealedHistory(head: ChainHead, count: number, start: number): Generator<ActivityEvent[]> {
  let last = head;
  for (let from = 0; from < count; from += BATCH) {
    const batch: ActivityEvent[] = [];
    for (let i = from; i < Math.min(count, from + BATCH); i++) {
      const type = seededType(i);
      const event = sealEvent(
        {
          id: `evt_seed${randomBytes(8).toString('hex')}${i.toString(16).padStart(8, '0')}`,
          type,
          occurred_at: new Date(start + i * 10).toISOString(),
          organization: 'acme',
          ...seededPlace(i),
          actor: { type: 'user', id: i % 7 === 0 ? 'dev' : 'admin' },
          device_id: 'dev_0123456789abcdef01234567',
          data: seededData(i, type),
        },
        last,
      );
      batch.push(event);
      last = { seq: event.seq, hash: event.hash };
    }
    yield batch;
  }
}

/** A fresh database on the server `DATABASE_URL` names; dropped by `drop`. */
export async function freshDatabase(prefix: string) {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = await pgDriver(DATABASE_URL);
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      await admin.close();
    },
  };
}

/** Appends `count` seeded events to `acme`'s chain in the database at `url`; answers the new head. */
export async function seedHistory(db: SqlDriver, count: number): Promise<ChainHead> {
  const store = await createPostgresStore({ driver: db });
  const organization = await store.organizations.getBySlug('acme');
  if (!organization) throw new Error('organization acme is missing');
  const newest = (await store.activity.list({ organizationId: organization.id, limit: 1 }))[0]!;
  let head: ChainHead = { seq: newest.seq, hash: newest.hash };
  for (const batch of sealedHistory(head, count, Date.parse(newest.occurred_at) + 10)) {
    await store.restores.insertEvents(organization.id, batch);
    head = { seq: batch.at(-1)!.seq, hash: batch.at(-1)!.hash };
  }
  await db.query(`ANALYZE ${tablesOf('latchkey').events}`);
  return head;
}

/** Replaces the `data` of event `seq` in the table, as someone with database access would. */
export async function tamper(db: SqlDriver, seq: number): Promise<void> {
  await db.query(
    `UPDATE ${tablesOf('latchkey').events} SET body = jsonb_set(body::jsonb, '{data}', '{"edited": true}')::text WHERE seq = $1`,
    [seq],
  );
}

/** The Express example on `databaseUrl`, with its own keyring and audit key, and an API caller. */
export async function startPostgresServer(databaseUrl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-activity-'));
  const keyFile = join(dir, 'audit-key.pem');
  const auditKey = generateAuditKey();
  writeFileSync(keyFile, auditKey.privateKeyPem, { mode: 0o600 });
  const started = await startExample(
    'express',
    {
      PORT: '0',
      LATCHKEY_STORE: databaseUrl,
      LATCHKEY_KEYRING: `k1:${generateKeyringKey()}`,
      LATCHKEY_AUDIT_KEY_FILE: keyFile,
      LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
      LATCHKEY_WEBHOOK_ALLOW_HOSTS: 'localhost',
      LATCHKEY_RETRY_SCHEDULE: '0,0.2',
    },
    'bundle',
  );
  const api = async (method: string, path: string, body?: unknown, as = ADMIN_TOKEN) => {
    const response = await fetch(`${started.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as Record<string, unknown>;
  };
  return {
    ...started,
    dir,
    api,
    publicKey: auditKey.publicKey,
    stop: () => stopExample(started.child, 'SIGKILL'),
  };
}

/** Projects web (staging, prod) and api (prod), and developer `dev` granted web/staging: their token. */
export async function setUpOrganization(api: Awaited<ReturnType<typeof startPostgresServer>>['api']) {
  const org = '/organizations/acme';
  for (const project of ['web', 'api']) await api('POST', `${org}/projects`, { slug: project });
  for (const [project, environment] of [
    ['web', 'staging'],
    ['web', 'prod'],
    ['api', 'prod'],
  ] as const)
    await api('POST', `${org}/projects/${project}/environments`, { slug: environment });
  await api('POST', `${org}/members`, {
    user: 'dev',
    role: 'developer',
    grants: [{ project: 'web', environments: ['staging'] }],
  });
  const created = await api('POST', `${org}/tokens`, { user: 'dev', name: 'browser' });
  return { developerToken: created['token'] as string };
}
