/**
 * Workload identity's secrets on both engines, read as someone holding the database, the logs and
 * every answer would: ID tokens signed by a test OIDC issuer on loopback HTTPS are exchanged (and
 * refused: replayed, tampered, for another audience), the workload token pulls, pushes strict and
 * proposes a change, and an admin reads the history, the devices, the identities, the change
 * requests, the activity export and a backup; then the identity is deleted. No ID token, none of
 * its three parts (the signature above all) and no workload token appears in any answer, any event,
 * the export, the backup, any row of any table of the store's schema, or any line the core logged
 * or wrote to the console.
 */
import {
  createCore,
  generateAuditKey,
  generateDeviceKeyPair,
  signChangeRequest,
  signPush,
} from '@latchkey/core';
import { startTestIssuer, type TestIssuer } from '@latchkey/test-utils/oidc-issuer';
import { describe, expect, it, vi } from 'vitest';
import { createPostgresStore, type SqlDriver } from '../src/index.js';
import { pgDriver } from '../src/pg.js';
import { acmeKeyring, TOKEN } from './acme.js';
import { DATABASE_URL, dropSchema, freshSchema, onPostgres } from './databases.js';
import { freshPglite } from './fresh-pglite.js';

/** The value a workload proposes: sealed in its change request's row, never in an answer or log. */
const PROPOSED = 'proposed-from-ci-5b7e21';
const ORG = '/api/v2/organizations/acme';
const ENV = `${ORG}/projects/web/environments/prod`;
const ADDRESS = { organization: 'acme', project: 'web', environment: 'prod' };
const AUDIENCE = 'https://latchkey.test/acme';
const CLAIMS = { sub: 'repo:acme/web:ref:refs/heads/main', repository_id: '424242', ref: 'refs/heads/main' };

/** A core answer's body as text, streamed (the export, the backup) or not. */
async function bodyText(body: unknown): Promise<string> {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString();
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<string | Uint8Array>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

/** Every row of every table of `schema`, as JSON text. */
async function allRows(driver: SqlDriver, schema: string): Promise<string[]> {
  const tables = await driver.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
    [schema],
  );
  // Every table, the workload identities' and tokens' among them.
  expect(tables.rows.length).toBeGreaterThan(10);
  expect(tables.rows.filter((t) => t.table_name.includes('workload')).length).toBeGreaterThanOrEqual(2);
  const rows: string[] = [];
  for (const { table_name: table } of tables.rows) {
    const read = await driver.query<{ row: string }>(
      `SELECT row_to_json(t)::text AS row FROM "${schema}"."${table}" t`,
    );
    rows.push(...read.rows.map((r) => r.row));
  }
  return rows;
}

async function checkWorkloadSecrets(driver: SqlDriver, schema: string, issuer: TestIssuer) {
  const logged: unknown[] = [];
  const consoleLines: unknown[][] = [];
  const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void consoleLines.push(args)),
  );
  const store = await createPostgresStore({ driver, schema });
  const core = createCore({
    store,
    keyring: acmeKeyring,
    auditKey: generateAuditKey().privateKeyPem,
    trustedIssuers: [{ issuer: issuer.issuer, ca: issuer.ca }],
    logger: { error: (message, meta) => logged.push({ message, meta }) },
  });
  const answers: string[] = [];
  const send = async (method: string, url: string, body?: unknown, token: string | null = TOKEN) => {
    const response = await core.handle({
      method,
      url,
      headers: { ...(token && { authorization: `Bearer ${token}` }), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await bodyText(response.body);
    answers.push(text);
    const json = String(response.headers['content-type'] ?? '').includes('json') && !text.includes('\n{');
    return { status: response.status, text, json: json && text ? JSON.parse(text) : null };
  };
  const jwts: string[] = [];
  const sign = async (claims: Record<string, unknown> = {}) => {
    const jwt = await issuer.sign({ aud: AUDIENCE, ...CLAIMS, ...claims });
    jwts.push(jwt);
    return jwt;
  };
  try {
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    expect((await send('POST', `${ORG}/projects`, { slug: 'web' })).status).toBe(201);
    expect((await send('POST', `${ORG}/projects/web/environments`, { slug: 'prod' })).status).toBe(201);
    const identity = await send('POST', `${ORG}/workload-identities`, {
      name: 'ci',
      issuer: issuer.issuer,
      audience: AUDIENCE,
      subject: CLAIMS.sub,
      claims: { repository_id: CLAIMS.repository_id, ref: CLAIMS.ref },
      grants: [{ project: 'web', environments: ['prod'] }],
      actions: ['secrets:read', 'secrets:push', 'changes:propose'],
    });
    expect(identity.status, identity.text).toBe(201);

    const keys = generateDeviceKeyPair();
    const jwt = await sign();
    const exchanged = await send(
      'POST',
      '/api/v2/workload-tokens',
      { organization: 'acme', identity: 'ci', id_token: jwt, public_key: keys.publicKey },
      null,
    );
    expect(exchanged.status, exchanged.text).toBe(201);
    const { token, device_id: deviceId } = exchanged.json as { token: string; device_id: string };
    // The one answer that holds the workload token is the exchange's own; it holds none of the JWT.
    answers.pop();
    for (const part of jwt.split('.')) expect(exchanged.text).not.toContain(part);
    // Refusals: the same token again, a tampered one, one for another audience.
    const exchange = (idToken: string) =>
      send(
        'POST',
        '/api/v2/workload-tokens',
        {
          organization: 'acme',
          identity: 'ci',
          id_token: idToken,
          public_key: generateDeviceKeyPair().publicKey,
        },
        null,
      );
    expect((await exchange(jwt)).status).toBe(409);
    const [header, payload, signature] = (await sign()).split('.') as [string, string, string];
    const tampered = `${header}.${payload.slice(0, -2)}AA.${signature}`;
    jwts.push(tampered);
    expect((await exchange(tampered)).status).toBe(401);
    expect((await exchange(await sign({ aud: 'https://elsewhere.test' }))).status).toBe(401);

    const pushed = await send(
      'POST',
      `${ENV}/push`,
      signPush(
        {
          device_id: deviceId,
          changes: [{ key: 'FROM_CI', value: 'v1', if_version: 0 }],
          conflict_mode: 'strict',
        },
        ADDRESS,
        keys.privateKey,
      ),
      token,
    );
    expect(pushed.status, pushed.text).toBe(200);
    expect((await send('GET', `${ENV}/secrets`, undefined, token)).status).toBe(200);
    const policy = await send('PATCH', ENV, {
      approval_policy: { required_approvals: 1, bypass_roles: ['owner'] },
    });
    expect(policy.status, policy.text).toBe(200);
    const proposed = await send(
      'POST',
      `${ENV}/change-requests`,
      signChangeRequest(
        {
          device_id: deviceId,
          changes: [{ key: 'FROM_CI', value: PROPOSED, if_version: 1 }],
          title: 'From CI',
          description: '',
        },
        ADDRESS,
        keys.privateKey,
      ),
      token,
    );
    expect(proposed.status, proposed.text).toBe(201);

    for (const path of [
      '/history?limit=100',
      '/devices',
      '/workload-identities',
      '/projects/web/environments/prod/change-requests',
    ])
      expect((await send('GET', `${ORG}${path}`)).status).toBe(200);
    const exported = await send('GET', `${ORG}/activity/export`);
    expect(exported.status).toBe(200);
    expect(exported.text).toContain('workload_token_issued');
    const backup = await send('GET', `${ORG}/backup`);
    expect(backup.status, backup.text.slice(0, 300)).toBe(200);
    expect(backup.text).toContain('latchkey_backup');
    // The identity travels in it; its tokens do not (checked below).
    expect(backup.text).toMatch(/"kind":"workload_identity"/);
    expect(
      (await send('DELETE', `${ORG}/workload-identities/${(identity.json as { id: string }).id}`)).status,
    ).toBe(200);
    expect((await send('GET', `${ENV}/secrets`, undefined, token)).status).toBe(401);

    const events = await send('GET', `${ORG}/history?limit=100`);
    const places = {
      answers: answers.join('\n'),
      events: events.text,
      export: exported.text,
      backup: backup.text,
      database: (await allRows(driver, schema)).join('\n'),
      logs: JSON.stringify(logged),
      console: JSON.stringify(consoleLines),
    };
    expect(places.database).toContain('workload_token_issued');
    const secretParts = [token, token.slice('lkw_'.length), ...jwts, ...jwts.flatMap((j) => j.split('.'))];
    for (const [place, text] of Object.entries(places))
      for (const secret of secretParts)
        expect(text.includes(secret), `${place} holds a token or part of one`).toBe(false);
    // The proposal's value is sealed at rest and shown to nobody who did not ask for it (a backup
    // opens it, as it does every value).
    const sealed = { ...places, answers: answers.filter((a) => a !== backup.text).join('\n'), backup: '' };
    for (const [place, text] of Object.entries(sealed))
      expect(text.includes(PROPOSED), `${place} holds the proposed value`).toBe(false);
  } finally {
    for (const spy of spies) spy.mockRestore();
    await store.close();
  }
}

describe('workload tokens at rest on PGlite', () => {
  it('keeps no ID token, signature part or workload token in answers, events, exports, backups, rows or logs', async () => {
    const issuer = await startTestIssuer('localhost');
    try {
      await checkWorkloadSecrets(await freshPglite(), 'latchkey', issuer);
    } finally {
      await issuer.close();
    }
  });
});

onPostgres('workload tokens at rest on PostgreSQL', () => {
  describe('workload tokens at rest on PostgreSQL', () => {
    it('keeps no ID token, signature part or workload token in answers, events, exports, backups, rows or logs', async () => {
      const [issuer, schema] = [await startTestIssuer('localhost'), freshSchema()];
      try {
        await checkWorkloadSecrets(await pgDriver(DATABASE_URL), schema, issuer);
      } finally {
        await dropSchema(schema);
        await issuer.close();
      }
    });
  });
});
