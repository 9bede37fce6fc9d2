/**
 * Audit webhook deliveries end to end, through each example server started as a user would: a real
 * HTTPS receiver on loopback with a certificate made by the real openssl, trusted by the server only
 * through NODE_EXTRA_CA_CERTS. Every delivery verifies with @latchkey/webhook-verifier and with
 * Stripe's own `constructEvent` (the same scheme, header rewritten to `t=…,v1=…`); fail twice then
 * succeed is three attempts of one event; a receiver that always fails drives its webhook to
 * dead_letter, events meanwhile are held and `enable` delivers them all; 410 dead-letters at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWebhookVerifier } from '@latchkey/webhook-verifier';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLoopbackCertificate } from '../certificates/loopback-certificate.js';
import { sendJsonAs } from './client.js';
import { type StartedExample, startExample, stopExample } from './start-example.js';

const TOKEN = 'lk_example_webhook_e2e_token_00000000000000';
const HOOKS = '/api/v2/organizations/acme/audit-webhooks';

interface Received {
  path: string;
  body: string;
  headers: Record<string, string>;
}

/** Registers the audit webhook end-to-end test for `examples/<name>`. */
export function describeWebhookDeliveries(name: string): void {
  describe(`audit webhook deliveries through ${name}`, () => {
    const kit = deliveryKit(name);
    deliveryTests(kit);
  });
}

type DeliveryKit = ReturnType<typeof deliveryKit>;

/** Starts the example with a receiver of its own for the describe block, and what the tests use of both. */
function deliveryKit(name: string) {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-deliveries-'));
  const received: Received[] = [];
  const failing = new Set(['/down']);
  let flakyFailures = 2;
  let receiver: Server;
  let receiverUrl: string;
  let started: StartedExample;
  const secrets = new Map<string, string>();
  const stripe = new Stripe('sk_test_not_used_offline');

  const request = sendJsonAs(() => started.url, TOKEN);
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await request(method, path, body);
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const at = (path: string) => received.filter((r) => r.path === path);
  const until = async (condition: () => boolean | Promise<boolean>, what: string) => {
    const began = Date.now();
    while (!(await condition())) {
      if (Date.now() - began > 15_000) throw new Error(`timed out waiting for ${what}:\n${started.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const createHook = async (path: string) => {
    const created = await send('POST', HOOKS, { name: path, url: `${receiverUrl}${path}` });
    expect(created.status).toBe(201);
    secrets.set(path, created.json['signing_secret'] as string);
    return created.json['id'] as string;
  };
  const untilDeadLettered = (id: string) =>
    until(async () => (await send('GET', `${HOOKS}/${id}`)).json['status'] === 'dead_letter', 'dead_letter');

  beforeAll(async () => {
    const certificate = makeLoopbackCertificate(dir);
    receiver = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        received.push({
          path,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: request.headers as Record<string, string>,
        });
        if (path === '/gone') response.writeHead(410).end();
        else if (failing.has(path)) response.writeHead(500).end();
        else if (path === '/flaky' && flakyFailures > 0) {
          flakyFailures--;
          response.writeHead(503).end();
        } else response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `https://localhost:${(receiver.address() as AddressInfo).port}`;
    started = await startExample(
      name,
      {
        PORT: '0',
        LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN,
        LATCHKEY_WEBHOOK_ALLOW_HOSTS: 'localhost',
        LATCHKEY_RETRY_SCHEDULE: '0,0.2,0.2',
        NODE_EXTRA_CA_CERTS: certificate.certFile,
      },
      'bundle',
    );
  }, 60_000);

  afterAll(async () => {
    if (started) await stopExample(started.child, 'SIGKILL');
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  return { at, createHook, failing, secrets, send, stripe, until, untilDeadLettered };
}

/** Signed deliveries, retries, dead letters and 410 Gone, as the receiver saw them. */
function deliveryTests(kit: DeliveryKit): void {
  const { at, createHook, failing, secrets, send, stripe, until, untilDeadLettered } = kit;
  it('delivers every event signed: the verifier and Stripe constructEvent both accept each one', async () => {
    await createHook('/ok');
    for (const slug of ['web', 'api'])
      expect((await send('POST', '/api/v2/organizations/acme/projects', { slug })).status).toBe(201);
    await until(() => at('/ok').length >= 3, 'three deliveries');
    const verifier = createWebhookVerifier({ secret: secrets.get('/ok')! });
    const types: string[] = [];
    for (const delivery of at('/ok')) {
      const event = (await verifier.verify(delivery.body, delivery.headers)).json() as unknown as {
        id: string;
        type: string;
      };
      types.push(event.type);
      expect(delivery.headers['x-service-event-id']).toBe(event.id);
      expect(delivery.headers['content-type']).toBe('application/json');
      const stripeHeader = `t=${delivery.headers['x-service-timestamp']},v1=${delivery.headers['x-service-signature']!.replace(/^sha256=/, '')}`;
      expect(stripe.webhooks.constructEvent(delivery.body, stripeHeader, secrets.get('/ok')!)).toMatchObject({
        id: event.id,
      });
    }
    // Deliveries are sent concurrently and may arrive in any order (receivers order by `seq`).
    expect(types.sort()).toEqual(['audit_webhook_created', 'project_created', 'project_created']);
  });

  it('retries a failing receiver: fail twice then succeed is three attempts of one event', async () => {
    const id = await createHook('/flaky');
    await until(() => at('/flaky').length >= 3, 'three attempts');
    const ids = new Set(at('/flaky').map((r) => r.headers['x-service-event-id']));
    expect(ids.size).toBe(1);
    expect(new Set(at('/flaky').map((r) => r.headers['x-service-timestamp'])).size).toBeGreaterThanOrEqual(1);
    await until(
      async () => (await send('GET', `${HOOKS}/${id}`)).json['last_delivery'] !== null,
      'the record',
    );
    const log = (await send('GET', `${HOOKS}/${id}/deliveries`)).json as {
      attempts: { succeeded: boolean; status_code: number }[];
    };
    expect(log.attempts.map((a) => [a.succeeded, a.status_code])).toEqual([
      [true, 204],
      [false, 503],
      [false, 503],
    ]);
  });

  it('dead-letters a receiver that always fails, holds what comes meanwhile, and enable delivers it all', async () => {
    const id = await createHook('/down');
    await untilDeadLettered(id);
    expect(at('/down')).toHaveLength(3);
    expect((await send('POST', '/api/v2/organizations/acme/projects', { slug: 'meanwhile' })).status).toBe(
      201,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(at('/down')).toHaveLength(3);
    failing.delete('/down');
    expect((await send('POST', `${HOOKS}/${id}/enable`)).status).toBe(200);
    await until(
      () => new Set(at('/down').map((r) => r.headers['x-service-event-id'])).size >= 4,
      'the held events',
    );
    const types = new Set(at('/down').map((r) => (JSON.parse(r.body) as { type: string }).type));
    for (const type of [
      'audit_webhook_created',
      'audit_webhook_dead_lettered',
      'project_created',
      'audit_webhook_enabled',
    ]) {
      expect(types.has(type), type).toBe(true);
    }
    const metrics = (await send('GET', `${HOOKS}/metrics`)).json as {
      summary: { dead_lettered_webhooks: number };
    };
    expect(metrics.summary.dead_lettered_webhooks).toBe(0);
  });

  it('dead-letters at once on 410 Gone', async () => {
    const id = await createHook('/gone');
    await untilDeadLettered(id);
    expect(at('/gone')).toHaveLength(1);
    expect((await send('GET', `${HOOKS}/${id}`)).json).toMatchObject({
      last_error: { code: 'http_status', status_code: 410 },
    });
  });
}
