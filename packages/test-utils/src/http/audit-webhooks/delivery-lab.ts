/**
 * A delivery lab for the webhook filter tests: an organization of its own, a real HTTPS receiver on
 * loopback (a certificate for the suite's public host, made by the real openssl) and a delivery
 * engine that sends to it through the production transport, pinned to loopback. Deliveries owed
 * to other webhooks of the suite's store are answered without any network, as the suite's own
 * transport does, so the lab changes nothing a later test reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ActivityEvent, generateDeviceKeyPair, signPush, type UnsignedPush } from '@latchkey/core';
import { createDeliveryEngine, createUndiciTransport, parseAllowHosts } from '@latchkey/core/webhooks';
import { expect } from 'vitest';
import { makeLoopbackCertificate } from '../../certificates/loopback-certificate.js';
import { ADMIN, type ConformanceContext, type Member } from '../harness/context.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';
import type { TargetResponse } from '../harness/http-target.js';

/** A delivery the receiver answered 2xx. */
export interface Received {
  path: string;
  eventId: string;
  event: ActivityEvent;
  /** The body exactly as received, and the request's headers (for the signature scheme tests). */
  raw: string;
  headers: Record<string, string>;
}

/** An organization with an owner, a project `app` with environment `prod`, and a device. */
export interface Lab {
  slug: string;
  organizationId: string;
  owner: Member;
  /** The organization's API, as its owner. */
  send(method: string, path: string, body?: unknown, token?: string): Promise<TargetResponse>;
  /** A signed push to app/prod as the owner's device. */
  push(push: Omit<UnsignedPush, 'device_id'>): Promise<TargetResponse>;
  /** The receiver's URL for `path`. */
  urlOf(path: string): Promise<string>;
  /** Creates a webhook to `path` on the receiver; answers its id. */
  hook(path: string, extra?: Record<string, unknown>): Promise<string>;
  /** What the receiver took, in arrival order. */
  received: Received[];
  /** Runs the engine until nothing is due. */
  drain(): Promise<void>;
  /** The organization's events, oldest first. */
  events(): Promise<ActivityEvent[]>;
  close(): Promise<void>;
}

let labs = 0;

/** The answer to a delivery owed to a webhook outside the lab: taken, with no network. */
const answered = async () => ({
  ok: true,
  statusCode: 200,
  latencyMs: 1,
  error: null,
  retryAfterSeconds: null,
});

/** Opens a lab on the suite's core. */
export async function openLab(ctx: ConformanceContext): Promise<Lab> {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-filters-'));
  const certificate = makeLoopbackCertificate(dir, PUBLIC_HOST);
  const received: Received[] = [];
  const server: Server = createServer(
    { key: certificate.key, cert: certificate.cert },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        if (path.endsWith('/gone')) return void response.writeHead(410).end();
        const raw = Buffer.concat(chunks).toString();
        const event = JSON.parse(raw) as ActivityEvent;
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        );
        const eventId = String(request.headers['x-service-event-id'] ?? request.headers['webhook-id']);
        received.push({ path, eventId, event, raw, headers });
        response.writeHead(204).end();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
  const real = createUndiciTransport({
    resolve,
    allowHosts: parseAllowHosts(PUBLIC_HOST),
    tls: { ca: certificate.cert },
  });
  const engine = createDeliveryEngine({
    store: ctx.core.store,
    keyring: ctx.keyring,
    webhooks: { resolve, allowHosts: PUBLIC_HOST, retry: { schedule: [0], jitter: 0 } },
    // The suite's clock, so a test that pins it signs deliveries at that time too.
    now: () => ctx.clock.pinnedMs ?? Date.now(),
    transport: {
      send: (request) =>
        request.url.startsWith(`https://${PUBLIC_HOST}:${port}/`) ? real.send(request) : answered(),
      close: () => real.close(),
    },
  });

  const slug = `lab-${++labs}-${Math.random().toString(36).slice(2, 8)}`;
  const created = await ctx.send('POST', '/api/v2/organizations', { slug }, ADMIN);
  expect(created.status, created.text).toBe(201);
  const token = (created.json as { token: string }).token;
  const organizationId = (await ctx.core.store.organizations.getBySlug(slug))!.id;
  const base = `/api/v2/organizations/${slug}`;
  const send = (method: string, path: string, body?: unknown, as = token) =>
    ctx.send(method, `${base}${path}`, body, as);
  const ok = async (response: Promise<TargetResponse>, status: number) => {
    const answered = await response;
    expect(answered.status, answered.text).toBe(status);
    return answered.json as Record<string, unknown>;
  };
  await ok(send('POST', '/projects', { slug: 'app' }), 201);
  await ok(send('POST', '/projects/app/environments', { slug: 'prod' }), 201);
  const keys = generateDeviceKeyPair();
  const device = await ok(send('POST', '/devices', { name: 'lab laptop', public_key: keys.publicKey }), 201);
  const owner: Member = { token, keys, deviceId: device['id'] as string };
  const address = { organization: slug, project: 'app', environment: 'prod' };

  return {
    slug,
    organizationId,
    owner,
    send,
    push: (push) =>
      send(
        'POST',
        '/projects/app/environments/prod/push',
        signPush({ device_id: owner.deviceId, ...push }, address, keys.privateKey),
      ),
    urlOf: async (path) => `https://${PUBLIC_HOST}:${port}${path}`,
    async hook(path, extra = {}) {
      const url = `https://${PUBLIC_HOST}:${port}${path}`;
      return (await ok(send('POST', '/audit-webhooks', { name: path, url, ...extra }), 201))['id'] as string;
    },
    received,
    async drain() {
      for (let round = 0; round < 200 && (await engine.runOnce()) > 0; round++);
    },
    events: () => ctx.core.store.activity.list({ organizationId, limit: 100_000, oldestFirst: true }),
    async close() {
      await engine.stop();
      await real.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
