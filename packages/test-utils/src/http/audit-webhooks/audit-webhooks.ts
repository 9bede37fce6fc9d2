/**
 * Item: audit webhook management over HTTP. Create (https only, SSRF refused at create, the signing
 * secret once), list and get (never the secret), rotate, disable and enable, recover, the attempt
 * log and the metrics' documented shape; every action an activity event that carries no
 * secret; another organization's webhook is a 404.
 */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { type ConformanceContext, OTHER_ORG_ADMIN } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';

export const HOOKS = '/api/v2/organizations/acme/audit-webhooks';
export interface Created {
  id: string;
  signing_secret: string;
  [field: string]: unknown;
}

/** Creates a webhook of acme through the API (201 expected), with its signing secret. */
export async function createWebhook(
  ctx: ConformanceContext,
  name: string,
  url = `https://${PUBLIC_HOST}/latchkey`,
): Promise<Created> {
  const response = await ctx.send('POST', HOOKS, { name, url });
  expect(response.status, response.text).toBe(201);
  return response.json as Created;
}

/** Registers the audit webhook tests. */
export function describeAuditWebhookTests(ctx: ConformanceContext): void {
  describe('audit webhooks', () => {
    createTests(ctx);
    lifecycleTests(ctx);
    metricsAndIsolationTests(ctx);
  });
}

/** Create shows the secret once and refuses non-public targets and malformed bodies. */
function createTests(ctx: ConformanceContext): void {
  const create = (name: string, url?: string) => createWebhook(ctx, name, url);
  it('creates a webhook and shows its signing secret once', async () => {
    const created = await create('  SIEM  ');
    expect(created).toMatchObject({
      name: 'SIEM',
      url: `https://${PUBLIC_HOST}/latchkey`,
      status: 'active',
      consecutive_failures: 0,
      last_delivery: null,
      last_error: null,
    });
    expect(created.signing_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const listed = await ctx.send('GET', HOOKS);
    const got = await ctx.send('GET', `${HOOKS}/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual(
      Object.fromEntries(Object.entries(created).filter(([k]) => k !== 'signing_secret')),
    );
    for (const answer of [listed, got]) {
      expect(answer.text).not.toContain(created.signing_secret);
      expect(answer.text).not.toContain('signing_secret');
      expect(answer.text).not.toContain('lk1.');
    }
    expect((listed.json as { audit_webhooks: { id: string }[] }).audit_webhooks.map((w) => w.id)).toContain(
      created.id,
    );
    const [event] = await ctx.events('audit_webhook_created');
    expect(event!.data).toEqual({
      webhook_id: created.id,
      name: 'SIEM',
      host: PUBLIC_HOST,
      event_types: [],
    });
  });

  const refusedTargets: [string, string][] = [
    ['http', 'http://hooks.example.com/x'],
    ['a relative URL', '/hooks'],
    ['credentials in the URL', `https://user:pw@${PUBLIC_HOST}/`],
    ['loopback', 'https://127.0.0.1/'],
    ['a decimal IPv4 spelling', 'https://2130706433/'],
    ['a hex IPv4 spelling', 'https://0x7f.0.0.1/'],
    ['an octal IPv4 spelling', 'https://0177.0.0.1/'],
    ['cloud metadata', 'https://169.254.169.254/latest/'],
    ['RFC 1918', 'https://192.168.1.20/'],
    ['CGNAT', 'https://100.64.1.1/'],
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv6 unique-local', 'https://[fd00:ec2::254]/'],
    ['IPv6 link-local', 'https://[fe80::1]/'],
    ['IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]/'],
    ['NAT64', 'https://[64:ff9b::a9fe:a9fe]/'],
    ['6to4', 'https://[2002:7f00:1::1]/'],
    ['a host resolving to a private address', 'https://internal.example.com/'],
    ['a host resolving to the metadata address', 'https://metadata.example.com/'],
    ['a host resolving to a public and a loopback address', 'https://mixed.example.com/'],
    ['a host resolving to an IPv4-mapped loopback', 'https://mapped.example.com/'],
    ['a host that does not resolve', 'https://nowhere.example.com/'],
  ];
  it('refuses every non-public target at create (400, nothing created)', async () => {
    for (const [label, url] of refusedTargets) await refusesTarget(label, url);
  });

  const refusesTarget = async (label: string, url: string) => {
    const before = (await ctx.send('GET', HOOKS)).json as { audit_webhooks: unknown[] };
    const response = await ctx.send('POST', HOOKS, { name: 'x', url });
    expect(response.status, label).toBe(400);
    expectError(response, 400, 'invalid_request');
    expect(response.text).not.toContain('10.0.0.5');
    const after = (await ctx.send('GET', HOOKS)).json as { audit_webhooks: unknown[] };
    expect(after.audit_webhooks.length, label).toBe(before.audit_webhooks.length);
  };

  const badBodies: [string, unknown][] = [
    ['no name', { url: `https://${PUBLIC_HOST}/` }],
    ['an empty name', { name: '  ', url: `https://${PUBLIC_HOST}/` }],
    ['no url', { name: 'x' }],
    ['an unknown field', { name: 'x', url: `https://${PUBLIC_HOST}/`, secret: 'mine' }],
    ['a control character in the name', { name: 'a\u0007b', url: `https://${PUBLIC_HOST}/` }],
  ];
  it('refuses malformed create bodies', async () => {
    for (const [label, body] of badBodies) {
      const response = await ctx.send('POST', HOOKS, body);
      expect(response.status, label).toBe(400);
      expectError(response, 400, 'invalid_request');
    }
  });
}

/** Rotate, disable, enable and recover, and the attempt log. */
function lifecycleTests(ctx: ConformanceContext): void {
  const create = (name: string, url?: string) => createWebhook(ctx, name, url);
  it('rotates the secret: a new one, shown once, and an event without it', async () => {
    const created = await create('rotating');
    const rotated = await ctx.send('POST', `${HOOKS}/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const secret = (rotated.json as Created).signing_secret;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.signing_secret);
    const got = await ctx.send('GET', `${HOOKS}/${created.id}`);
    expect(got.text).not.toContain(secret);
    const events = JSON.stringify(await ctx.events());
    expect(events).not.toContain(secret);
    expect(events).not.toContain(created.signing_secret);
    expect((await ctx.events('audit_webhook_secret_rotated'))[0]!.data).toMatchObject({
      webhook_id: created.id,
    });
  });

  it('disables and enables; recover is refused while disabled and queues the log once enabled', async () => {
    const created = await create('toggled');
    const since = new Date(Date.now() - 60_000).toISOString();
    const disabled = await ctx.send('POST', `${HOOKS}/${created.id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.json).toMatchObject({ status: 'disabled' });
    expectError(await ctx.send('POST', `${HOOKS}/${created.id}/recover`, { since }), 409, 'webhook_disabled');
    const enabled = await ctx.send('POST', `${HOOKS}/${created.id}/enable`);
    expect(enabled.json).toMatchObject({ status: 'active', consecutive_failures: 0 });
    const recovered = await ctx.send('POST', `${HOOKS}/${created.id}/recover`, { since });
    expect(recovered.status).toBe(202);
    expect((recovered.json as { queued: number }).queued).toBeGreaterThan(0);
    expectError(
      await ctx.send('POST', `${HOOKS}/${created.id}/recover`, { since: 'yesterday' }),
      400,
      'invalid_request',
    );
    const types = (await ctx.events()).slice(0, 4).map((e) => e.type);
    expect(types).toEqual([
      'audit_webhook_recovered',
      'audit_webhook_enabled',
      'audit_webhook_disabled',
      'audit_webhook_created',
    ]);
  });

  it('lists the attempt log, empty before any delivery, and checks its cursor', async () => {
    const created = await create('log');
    const log = await ctx.send('GET', `${HOOKS}/${created.id}/deliveries?limit=5`);
    expect(log.status).toBe(200);
    expect(log.json).toEqual({ attempts: [], next_cursor: null });
    expectError(
      await ctx.send('GET', `${HOOKS}/${created.id}/deliveries?cursor=zzz`),
      400,
      'invalid_request',
    );
    expectError(await ctx.send('GET', `${HOOKS}/${created.id}/deliveries?limit=101`), 400, 'invalid_request');
  });
}

/** Metrics in their documented shape (`docs/openapi.json`), and no reach into another organization. */
function metricsAndIsolationTests(ctx: ConformanceContext): void {
  const create = (name: string, url?: string) => createWebhook(ctx, name, url);
  it('answers metrics in their documented shape, default window 24h', async () => {
    const created = await create('metered');
    const metrics = await ctx.send('GET', `${HOOKS}/metrics`);
    expect(metrics.status).toBe(200);
    const body = metrics.json as {
      window: string;
      summary: Record<string, unknown>;
      webhooks: Record<string, unknown>[];
    };
    expect(body.window).toBe('24h');
    expect(Object.keys(body.summary).sort()).toEqual(
      ['attempted', 'dead_lettered_webhooks', 'failed', 'latency', 'succeeded', 'success_rate'].sort(),
    );
    const entry = body.webhooks.find((w) => w['id'] === created.id)!;
    expect(entry).toEqual({
      id: created.id,
      name: 'metered',
      status: 'active',
      attempted: 0,
      succeeded: 0,
      failed: 0,
      success_rate: 0,
      latency: { p50_ms: 0, p95_ms: 0, p99_ms: 0 },
      latency_buckets: {
        '0_100_ms': 0,
        '101_300_ms': 0,
        '301_1000_ms': 0,
        '1001_3000_ms': 0,
        '3001_plus_ms': 0,
      },
      last_error: null,
    });
    for (const window of ['7d', '30d']) {
      expect(
        ((await ctx.send('GET', `${HOOKS}/metrics?window=${window}`)).json as { window: string }).window,
      ).toBe(window);
    }
    for (const window of ['1h', '24H', '']) {
      expectError(await ctx.send('GET', `${HOOKS}/metrics?window=${window}`), 400, 'invalid_request');
    }
  });

  it("never reaches another organization's webhook (404) and refuses malformed ids (400)", async () => {
    const created = await create('private');
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/rotate-secret'],
      ['POST', '/disable'],
      ['POST', '/enable'],
      ['GET', '/deliveries'],
      ['POST', '/test'],
    ] as const) {
      expectError(
        await ctx.send(
          method,
          `/api/v2/organizations/globex/audit-webhooks/${created.id}${suffix}`,
          undefined,
          OTHER_ORG_ADMIN,
        ),
        404,
        'not_found',
      );
      expectError(
        await ctx.send(method, `${HOOKS}/${created.id}${suffix}`, undefined, OTHER_ORG_ADMIN),
        404,
        'not_found',
      );
    }
    expectError(await ctx.send('GET', `${HOOKS}/awh_nope`), 400, 'invalid_request');
    expectError(await ctx.send('GET', `${HOOKS}/awh_00000000000000000000`), 404, 'not_found');
    expect(((await ctx.send('GET', `${HOOKS}/${created.id}`)).json as { status: string }).status).toBe(
      'active',
    );
  });
}
