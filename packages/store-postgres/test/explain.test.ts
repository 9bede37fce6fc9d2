/**
 * Every query the store sends in a realistic workload is explained on real PostgreSQL, with tables
 * holding thousands of rows: none may read a table with rows by a sequential scan. The queries are
 * captured from the store itself, so a new query without an index fails here.
 */
import { generateDeviceKeyPair, signPush } from '@latchkey/core';
import { manifestOf } from '@latchkey/test-utils';
import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStore, tablesOf } from '../src/index.js';
import { pgDriver } from '../src/pg.js';
import { setUpAcme, TOKEN } from './acme.js';
import { DATABASE_URL, dropSchema, freshSchema, postgresUnavailable } from './databases.js';
import { recording } from './recording-driver.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/**
 * Tables read whole by design: one row per keyring key id ever used (a handful for the life of a
 * deployment), read at start-up to check the keyring against them.
 */
const READ_WHOLE = new Set(['keyring_key_ids']);

function seqScans(node: PlanNode, out: string[] = []): string[] {
  const relation = node['Relation Name'];
  if (node['Node Type'] === 'Seq Scan' && relation && !READ_WHOLE.has(relation)) out.push(relation);
  for (const child of node.Plans ?? []) seqScans(child, out);
  return out;
}

/** Bulk rows in every table, spread over many organizations, so the planner sees realistic sizes. */
function seedStatements(schema: string): string[] {
  const t = tablesOf(schema);
  const n = 5_000;
  return [
    `INSERT INTO ${t.organizations} SELECT 'org_seed_' || i, 'seed-' || i, 'Seed ' || i, now() FROM generate_series(1, ${n}) i`,
    `INSERT INTO ${t.projects} SELECT 'prj_seed_' || i, 'org_seed_' || i, 'web', 'web', now() FROM generate_series(1, ${n}) i`,
    `INSERT INTO ${t.environments} SELECT 'env_seed_' || i, 'org_seed_' || i, 'prj_seed_' || i, 'prod', false, now() FROM generate_series(1, ${n}) i`,
    `INSERT INTO ${t.members} SELECT 'org_seed_' || (i % ${n} + 1), 'user_' || i, 'developer', '[]', now() FROM generate_series(1, ${2 * n}) i`,
    `INSERT INTO ${t.tokens} SELECT 'tok_seed_' || i, 'org_seed_' || (i % ${n} + 1), 'user_' || i, 't', md5(i::text) || md5((i + 1)::text), now(), NULL FROM generate_series(1, ${2 * n}) i`,
    `INSERT INTO ${t.devices} SELECT 'dev_seed_' || i, 'org_seed_' || (i % ${n} + 1), 'user_' || i, 'd', 'k', 'active', now(), NULL FROM generate_series(1, ${2 * n}) i`,
    `INSERT INTO ${t.nonces} SELECT 'org_seed_' || (i % ${n} + 1) || '/dev', 'nonce_' || i, (extract(epoch from now()) * 1000)::bigint + i FROM generate_series(1, ${4 * n}) i`,
    `INSERT INTO ${t.secrets} SELECT 'env_seed_' || (i % ${n} + 1), 'KEY_' || i, 1, false, 'v', now() FROM generate_series(1, ${4 * n}) i`,
    `INSERT INTO ${t.secretVersions} SELECT 'env_seed_' || (i % ${n} + 1), 'KEY_' || (i % ${4 * n}), i / ${4 * n} + 1, false, CASE WHEN i > ${8 * n} THEN 'v' END, now(), 'user', 'u', NULL, NULL FROM generate_series(1, ${12 * n}) i`,
    `INSERT INTO ${t.chains} SELECT 'org_seed_' || i, 10, md5(i::text) FROM generate_series(1, ${n}) i`,
    `INSERT INTO ${t.webhooks} SELECT 'awh_seed_' || i, 'org_seed_' || i, 'w', 'https://h/', CASE WHEN i % 10 = 0 THEN 'dead_letter' ELSE 'active' END, 's', 0, NULL, NULL, now(), 'u' FROM generate_series(1, ${n}) i`,
    `INSERT INTO ${t.deliveries} SELECT 'dlv_seed_' || i, 'org_seed_' || (i % ${n} + 1), 'awh_seed_' || (i % ${n} + 1), 'evt_seed_' || i, i, CASE WHEN i % 7 = 0 THEN 'held' ELSE 'pending' END, 0, now() + (i || ' seconds')::interval, NULL, now() FROM generate_series(1, ${4 * n}) i`,
    `INSERT INTO ${t.attempts} (id, organization_id, webhook_id, delivery_id, event_id, event_type, attempt, at, succeeded, status_code, latency_ms, error, next_attempt_at) SELECT 'att_seed_' || i, 'org_seed_' || (i % ${n} + 1), 'awh_seed_' || (i % ${n} + 1), NULL, 'evt_seed_' || i, 't', 1, now() - (i || ' seconds')::interval, true, 200, 50, NULL, NULL FROM generate_series(1, ${4 * n}) i`,
    `INSERT INTO ${t.rollups} SELECT 'awh_seed_' || (i % ${n} + 1), CASE WHEN i % 2 = 0 THEN 'minute' ELSE 'hour' END, now() - (i || ' minutes')::interval, 'org_seed_' || (i % ${n} + 1), 1, 1, 0, '{}', '{}' FROM generate_series(1, ${4 * n}) i`,
    `INSERT INTO ${t.totals} SELECT 'awh_seed_' || (i % ${n} + 1), date_trunc('minute', now()) - (i || ' minutes')::interval, 'org_seed_' || (i % ${n} + 1), 1, 1, 0, '{}', '{}' FROM generate_series(1, ${4 * n}) i`,
    `INSERT INTO ${t.restoreSessions} SELECT 'rst_seed_' || i, 'org_seed_' || i, 'u', '{}', false, now(), now() + (i || ' seconds')::interval FROM generate_series(1, ${n}) i`,
    `INSERT INTO ${t.restoreParts} SELECT 'rst_seed_' || (i % ${n} + 1), i, 'x' FROM generate_series(1, ${4 * n}) i`,
    `INSERT INTO ${t.signingKeys} SELECT 'whk_seed_' || i, 'org_seed_' || (i % ${n} + 1), 'whpk_' || i, 's', now() - (i || ' seconds')::interval, CASE WHEN i > ${n} THEN now() + interval '1 day' END FROM generate_series(1, ${2 * n}) i`,
    `INSERT INTO ${t.events} SELECT 'org_seed_' || (i % ${n} + 1), i, 'evt_seed_' || i, CASE WHEN i % 3 = 0 THEN 'push_applied' ELSE 'project_created' END, 'web', 'prod', now(), '{}' FROM generate_series(1, ${10 * n}) i`,
    `INSERT INTO ${t.quoted}.webhook_claim_rates SELECT 'awh_seed_' || i, now(), 1 FROM generate_series(1, ${n / 10}) i`,
    `INSERT INTO ${t.leases} SELECT 'awh_seed_' || (i % ${n} + 1), now() + (i || ' ms')::interval, 1 FROM generate_series(1, ${4 * n}) i`,
    // Drafts waiting for a seal: a few per organization, in flight (the sweep looks for old ones).
    // Dated ahead so they stay younger than the sweep's period however long the explains take on a
    // busy machine: dated now(), they were all older than 5 s by the sweep's explain once, and then
    // reading the whole table is the right plan.
    `INSERT INTO ${t.pendingEvents} (organization_id, id, draft, created_at) SELECT 'org_seed_' || (i % ${n} + 1), 'evt_pending_' || i, '{}', now() + interval '1 hour' FROM generate_series(1, ${2 * n}) i`,
    // Every proof and export reads the cosignatures of its tree head, so they are a hot query too.
    `INSERT INTO ${t.witnesses} SELECT 'org_seed_' || (i % ${n} + 1), 'w_' || i, 'k_' || i, now() FROM generate_series(1, ${2 * n}) i`,
    `INSERT INTO ${t.cosignatures} SELECT 'org_seed_' || (i % ${n} + 1), i, md5(i::text), 'w_' || i, 0, 'l' FROM generate_series(1, ${2 * n}) i`,
    // Replays under way: a cursor per webhook, read by key when a webhook is replayed or disabled.
    `INSERT INTO ${t.replays} SELECT 'awh_seed_' || i, 'org_seed_' || i, now(), NULL, 1, 10, now() FROM generate_series(1, ${n / 10}) i`,
    // Workload identities and the ID tokens' jtis each organization has exchanged (a restore clears
    // both by organization).
    `INSERT INTO ${t.workloadIdentities} SELECT 'wid_seed_' || i, 'org_seed_' || (i % ${n} + 1), 'ci-' || i, 'https://issuer.example', 'aud', 'repo:o/r:ref:refs/heads/main', '{}', '[]', '{push}', 900, now() FROM generate_series(1, ${2 * n}) i`,
    `INSERT INTO ${t.workloadJtis} SELECT 'org_seed_' || (i % ${n} + 1), 'https://issuer.example', 'jti_' || i, now() + interval '1 hour' FROM generate_series(1, ${4 * n}) i`,
    // Change requests, most of them closed: a backup reads an environment's open ones.
    `INSERT INTO ${t.changeRequests} SELECT 'chr_seed_' || i, 'org_seed_' || (i % ${n} + 1), 'prj_seed_' || (i % ${n} + 1), 'env_seed_' || (i % ${n} + 1), 'web', 'prod', CASE WHEN i % 5 = 0 THEN 'open' ELSE 'applied' END, 'seed', '', 'admin', 'dev_seed', now(), now() + interval '1 day', 1, '[]', '[]', NULL, NULL, 0 FROM generate_series(1, ${3 * n}) i`,
    `INSERT INTO ${t.treeNodes} SELECT 'org_seed_' || (i % ${n} + 1), i % 3, i, sha256(int8send(i)) FROM generate_series(1, ${20 * n}) i`,
  ];
}

// Skipped only off CI when no PostgreSQL answers (databases.ts prints why; in CI that is a failure).
describe.skipIf(postgresUnavailable !== null)('indexes for every hot query (real PostgreSQL)', () => {
  const schema = freshSchema();
  afterAll(async () => {
    await dropSchema(schema);
  });

  it('no query of the store reads a table with rows by a sequential scan', async () => {
    const recorded = recording(await pgDriver(DATABASE_URL));
    const store = await createPostgresStore({ driver: recorded.driver, schema });
    recorded.statements.clear(); // the migration's DDL is not a hot query
    // The workload: what the API does, route by route, plus the activity queries.
    const acme = await setUpAcme(store);
    const send = (method: string, url: string, body?: unknown) =>
      acme.core.handle({
        method,
        url,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const ENV = '/api/v2/organizations/acme/projects/web/environments/prod';
    const HOOKS = '/api/v2/organizations/acme/audit-webhooks';
    // A webhook first, so every event of the workload queues a delivery.
    const hook = await send('POST', HOOKS, { name: 'siem', url: 'https://receiver.test/hook' });
    expect(hook.status).toBe(201);
    const hookId = (JSON.parse(hook.body as string) as { id: string }).id;
    const keys = generateDeviceKeyPair();
    const device = JSON.parse(
      (await send('POST', '/api/v2/organizations/acme/devices', { name: 'x', public_key: keys.publicKey }))
        .body as string,
    ) as { id: string };
    const address = { organization: 'acme', project: 'web', environment: 'prod' };
    for (const if_version of [0, 1, 1]) {
      await send(
        'POST',
        `${ENV}/push`,
        signPush(
          { device_id: device.id, changes: [{ key: 'K', value: 'v', if_version }] },
          address,
          keys.privateKey,
        ),
      );
    }
    for (let i = 0; i < 300; i++) await store.nonces.consume('scope', `n${i}`, Date.now() - 1, Date.now());
    for (const path of [
      `${ENV}/secrets`,
      '/api/v2/organizations/acme',
      '/api/v2/organizations/acme/projects',
      '/api/v2/organizations/acme/projects/web/environments',
      '/api/v2/organizations/acme/members',
      '/api/v2/organizations/acme/tokens',
      '/api/v2/organizations/acme/devices',
    ]) {
      expect((await send('GET', path)).status, path).toBe(200);
    }
    await send('POST', '/api/v2/organizations/acme/members', { user: 'dev', role: 'developer' });
    await send('POST', '/api/v2/organizations/acme/tokens', { user: 'dev', name: 'ci' });
    await send('DELETE', `/api/v2/organizations/acme/devices/${device.id}`);
    const org = acme.organizationId;
    await store.activity.list({ organizationId: org, limit: 50 });
    await store.activity.list({ organizationId: org, project: 'web', limit: 50, beforeSeq: 100 });
    await store.activity.list({ organizationId: org, environment: 'prod', limit: 50 });
    await store.activity.list({ organizationId: org, types: ['push_applied'], limit: 50 });
    await store.activity.list({
      organizationId: org,
      limit: 50,
      since: '2026-01-01T00:00:00.000Z',
      until: '2099-01-01T00:00:00.000Z',
    });
    await store.activity.list({
      organizationId: org,
      project: 'web',
      projectEnvironments: ['prod'],
      limit: 50,
    });
    await store.activity.list({
      organizationId: org,
      types: ['push_applied', 'push_conflict'],
      beforeSeq: 5,
      limit: 8,
    });
    await store.devices.list(org, 'admin');
    // The token exchange's writes (one statement), for a workload identity of acme's.
    const at = new Date().toISOString();
    const until = new Date(Date.now() + 900_000).toISOString();
    const identity = {
      id: 'wid_explain0000',
      organization_id: org,
      name: 'ci',
      issuer: 'https://issuer.example',
      audience: 'aud',
      subject: 'repo:acme/web',
      claims: {},
      grants: [{ project: 'web', environments: ['prod'] }],
      actions: ['secrets:read' as const],
      token_ttl_seconds: 900,
      created_at: at,
    };
    expect(await store.workloads.create(identity, 10)).toBe('created');
    const ephemeral = {
      id: 'dev_explain0000',
      organization_id: org,
      user: identity.id,
      name: 'workload ci',
      public_key: generateDeviceKeyPair().publicKey,
      status: 'active' as const,
      created_at: at,
      revoked_at: null,
      expires_at: until,
    };
    const workloadToken = {
      id: 'wlt_explain0000',
      organization_id: org,
      identity_id: identity.id,
      token_hash: 'a'.repeat(64),
      device_id: ephemeral.id,
      created_at: at,
      expires_at: until,
    };
    const issue = { token: workloadToken, device: ephemeral, issuer: identity.issuer, jti: 'jti_explain' };
    expect(await store.workloads.issue({ ...issue, jti_expires_at: until, now: at, max_jtis: 10_000 })).toBe(
      'issued',
    );
    // Removed again: a backup holds only identities of issuers it can trust.
    expect(await store.workloads.remove(org, identity.id, until)).toEqual(identity);
    // The re-encrypt routine's walk and compare-and-set writes.
    const page = await store.secrets.scanValues(null, 100);
    await store.secrets.scanValues({ environmentId: 'env_seed_1', key: 'KEY_1' }, 100);
    await store.secrets.replaceValues(
      page.slice(0, 2).map((row) => ({ ...row, from: row.value, to: row.value })),
    );
    await store.auditWebhooks.replaceSecret(org, hookId, 'not-the-secret', 'unchanged');
    // The history of a key (pages, values), and the walk over its kept values.
    const history = JSON.parse((await send('GET', `${ENV}/secrets/K/versions?limit=1`)).body as string) as {
      next_cursor: string;
    };
    for (const query of [`?limit=1&cursor=${history.next_cursor}`, '?include_values=true']) {
      expect((await send('GET', `${ENV}/secrets/K/versions${query}`)).status, query).toBe(200);
    }
    const kept = await store.secrets.scanVersionValues(null, 100);
    await store.secrets.scanVersionValues({ environmentId: 'env_seed_1', key: 'KEY_1', version: 1 }, 100);
    await store.secrets.replaceVersionValues(
      kept.slice(0, 2).map((row) => ({ ...row, from: row.value, to: row.value })),
    );
    await store.secrets.listAllVersions(acme.environmentId);
    await send('PATCH', '/api/v2/organizations/acme/members/dev', { role: 'viewer' });
    await send('DELETE', '/api/v2/organizations/acme/members/dev');
    for (const path of ['/history', '/projects/web/history', '/projects/web/environments/prod/history']) {
      expect(
        (await send('GET', `/api/v2/organizations/acme${path}?limit=5&type=push_applied`)).status,
        path,
      ).toBe(200);
    }
    // The export streams in one query (COPY of a SELECT), with and without filters.
    for (const query of ['', '?type=push_applied&since=2026-01-01T00:00:00Z']) {
      const exported = await send('GET', `/api/v2/organizations/acme/activity/export${query}`);
      expect(exported.status).toBe(200);
      let bytes = 0;
      for await (const chunk of exported.body as AsyncIterable<Uint8Array>) bytes += chunk.length;
      expect(bytes).toBeGreaterThan(0);
    }

    // The delivery engine's queries, and the webhook routes'.
    const soon = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
    const lease = soon(30);
    const claimed = await store.deliveries.claim({ now: soon(1), limit: 5, leaseUntil: lease });
    expect(claimed.length).toBeGreaterThan(1);
    for (const [i, c] of claimed.slice(0, 2).entries()) {
      const at = soon(2);
      const ok = i === 0;
      const attempt = {
        id: `att_explain${i}0000000000`,
        organization_id: c.delivery.organization_id,
        webhook_id: c.webhook.id,
        delivery_id: c.delivery.id,
        event_id: c.delivery.event_id,
        event_type: c.eventType,
        attempt: 1,
        at,
        succeeded: ok,
        status_code: ok ? 200 : 503,
        latency_ms: 40,
        error: ok
          ? null
          : { at, code: 'http_status' as const, status_code: 503, message: 'the receiver answered 503' },
        next_attempt_at: ok ? null : soon(60),
      };
      expect(await store.deliveries.record({ attempt, outcome: ok ? 'delivered' : 'retry' }, lease)).toBe(
        true,
      );
    }
    const log = JSON.parse((await send('GET', `${HOOKS}/${hookId}/deliveries?limit=1`)).body as string) as {
      next_cursor: string;
    };
    expect(
      (await send('GET', `${HOOKS}/${hookId}/deliveries?limit=1&cursor=${log.next_cursor}`)).status,
    ).toBe(200);
    expect((await send('GET', `${HOOKS}/metrics?window=30d`)).status).toBe(200);
    expect((await send('GET', HOOKS)).status).toBe(200);
    // Event-type filters: a webhook back-filled from the log, a filter changed, a range replayed.
    const since = '2026-01-01T00:00:00.000Z';
    const filtered = { name: 'pushes', url: 'https://receiver.test/pushes', event_types: ['push_*'] };
    expect((await send('POST', HOOKS, { ...filtered, replay_since: since })).status).toBe(201);
    const patched = await send('PATCH', `${HOOKS}/${hookId}`, { event_types: ['push_*', 'member_*'] });
    expect(patched.status, String(patched.body)).toBe(200);
    const range = { since, until: '2099-01-01T00:00:00.000Z' };
    expect((await send('POST', `${HOOKS}/${hookId}/recover`, range)).status).toBe(202);
    expect((await send('POST', `${HOOKS}/${hookId}/rotate-secret`)).status).toBe(200);
    expect((await send('POST', `${HOOKS}/${hookId}/recover`, { since: '2026-01-01T00:00:00Z' })).status).toBe(
      202,
    );
    expect((await send('POST', `${HOOKS}/${hookId}/disable`)).status).toBe(200);
    expect((await send('POST', `${HOOKS}/${hookId}/enable`)).status).toBe(200);
    await store.deliveries.count(org, hookId, 'pending');
    await store.deliveries.pruneAttempts('2000-01-01T00:00:00Z', 100);
    await store.deliveries.pruneRollups('2000-01-01T00:00:00Z');
    // A restore of acme's own backup over it (force): staging, the clearing deletes and the bulk inserts.
    let content = '';
    for await (const chunk of (await send('GET', '/api/v2/organizations/acme/backup')).body as AsyncIterable<
      string | Uint8Array
    >) {
      content += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    }
    const RESTORES = '/api/v2/organizations/acme/restores';
    const begun = await send('POST', RESTORES, { manifest: manifestOf(content), force: true });
    expect(begun.status).toBe(201);
    const restoreId = (JSON.parse(begun.body as string) as { id: string }).id;
    expect((await send('PUT', `${RESTORES}/${restoreId}/parts/0`, { data: content })).status).toBe(200);
    const committed = await send('POST', `${RESTORES}/${restoreId}/commit`);
    expect(committed.status, String(committed.body)).toBe(200);

    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      for (const statement of seedStatements(schema)) await client.query(statement);
      await client.query(`ANALYZE`);
      const statements = [...recorded.statements].filter(
        ([text]) => /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)/i.test(text) && text.includes(`"${schema}"`),
      );
      expect(statements.length).toBeGreaterThan(20);
      const offenders: string[] = [];
      for (const [text, params] of statements) {
        const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${text}`, params as unknown[]);
        const scans = seqScans(rows[0]['QUERY PLAN'][0].Plan as PlanNode);
        if (scans.length > 0) offenders.push(`${scans.join(', ')} <- ${text.replace(/\s+/g, ' ')}`);
      }
      // Statements a transaction runs on their generic plans (`GENERIC_PLANS`), as prepared: the plan
      // made without their parameters' values must not read a table whole either. Sequential scans
      // stay enabled here, so the plan holds on its own, not only by the store's setting.
      expect(recorded.generic.size).toBeGreaterThan(0);
      for (const text of recorded.generic) {
        const params = recorded.statements.get(text)!;
        await client.query('BEGIN');
        try {
          await client.query(`PREPARE latchkey_generic AS ${text}`);
          await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
          // EXECUTE takes its arguments as literals, written as node-postgres would send them.
          const literal = (value: unknown) =>
            value === null || value === undefined
              ? 'NULL'
              : client.escapeLiteral(String(pgUtils.prepareValue(value)));
          const { rows } = await client.query(
            `EXPLAIN (FORMAT JSON) EXECUTE latchkey_generic(${params.map(literal).join(', ')})`,
          );
          const scans = seqScans(rows[0]['QUERY PLAN'][0].Plan as PlanNode);
          if (scans.length > 0)
            offenders.push(`generic: ${scans.join(', ')} <- ${text.replace(/\s+/g, ' ')}`);
        } finally {
          await client.query('ROLLBACK');
          await client.query('DEALLOCATE ALL');
        }
      }
      expect(offenders).toEqual([]);
      console.log(
        `explained ${statements.length} distinct queries of the store (${recorded.generic.size} also on generic plans): no sequential scan`,
      );
    } finally {
      await client.end();
      await store.close();
    }
  }, 120_000);
});
