/**
 * The fault tests' scenario on real PostgreSQL: a database of its own, a loopback HTTPS receiver that
 * verifies each delivery with @latchkey/webhook-verifier and its replay cache (applying each event
 * once, refusing a replay with the 200 that tells the sender it is done), two delivery worker
 * processes (`worker-a`, the one the tests kill, and `worker-b`, as their PostgreSQL application
 * names), and eight writers queueing `events` events while the workers deliver them. `kill` runs
 * beside the writers and kills worker A its own way; the scenario then waits until every event has
 * been applied. Registered as the test file's beforeAll and afterAll.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, generateKeyringKey } from '@latchkey/core';
import { createPostgresStore, type PostgresStore } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { makeLoopbackCertificate } from '@latchkey/test-utils/loopback-certificate';
import { createWebhookVerifier, responseStatusFor, type WebhookVerifier } from '@latchkey/webhook-verifier';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { startWorker, type Worker } from './spawn-worker.js';

export const DATABASE_URL = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const TOKEN = 'lk_delivery_fault_test_token_000000000000000';
const ORG = '/api/v2/organizations/acme';

/** Runs `sql` on the server's maintenance connection (CREATE/DROP DATABASE). */
export async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Null when PostgreSQL answers, else why not (and in CI, a failure: no silent skip). */
export async function postgresUnreachable(): Promise<string | null> {
  const unreachable = await admin('SELECT 1').then(
    () => null,
    (error: Error) => error.message,
  );
  if (unreachable && process.env['CI'] === 'true')
    throw new Error(`PostgreSQL at DATABASE_URL is required in CI and is not reachable: ${unreachable}`);
  return unreachable;
}

/** What the scenario holds while and after it runs. */
export interface FaultRun {
  counts: { requests: number; applied: number; replays: number; refused: number };
  applied: Set<string>;
  workers: Worker[];
  store: PostgresStore;
  /** The scenario's database, for the tests' own connections. */
  url: URL;
  events: number;
}

/** Options of {@link faultScenario}. */
export interface FaultScenarioOptions {
  /**
   * A transaction-mode pooler (PgBouncer) in front of DATABASE_URL's server, read once the scenario
   * starts: the workers and the event writers then reach the database through it (`postgres://`
   * URL of the pooler; its path is replaced by the scenario's database), and the workers LISTEN on
   * a direct connection.
   */
  pooler?: () => string;
}

/** Registers the scenario: `events` events, worker A killed by `kill` while they are written. */
export function faultScenario(
  events: number,
  kill: (run: FaultRun) => Promise<void>,
  options: FaultScenarioOptions = {},
): FaultRun {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-fault-'));
  const database = `lk_fault_${randomBytes(5).toString('hex')}`;
  const url = new URL(DATABASE_URL);
  url.pathname = `/${database}`;
  const keyring = `k1:${generateKeyringKey()}`;
  const run = {
    counts: { requests: 0, applied: 0, replays: 0, refused: 0 },
    applied: new Set<string>(),
    workers: [],
    url,
    events,
  } as unknown as FaultRun;
  let verifier: WebhookVerifier | undefined;
  let receiver: Server;

  beforeAll(async () => {
    await admin(`CREATE DATABASE "${database}"`);
    const certificate = makeLoopbackCertificate(dir);
    receiver = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        run.counts.requests++;
        const result = await verifier!.safeVerify(Buffer.concat(chunks), request.headers);
        // A little work per event, so attempts are in flight when the worker is killed.
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (result.ok) {
          if (run.applied.has(result.event.id)) throw new Error(`event ${result.event.id} applied twice`);
          run.applied.add(result.event.id);
          run.counts.applied++;
          response.writeHead(204).end();
        } else if (result.code === 'replayed') {
          run.counts.replays++;
          response.writeHead(responseStatusFor(result.code)).end();
        } else {
          run.counts.refused++;
          response.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

    const pooled = options.pooler ? new URL(options.pooler()) : null;
    if (pooled) pooled.pathname = url.pathname;
    run.store = await createPostgresStore({
      driver: await pgDriver({
        connectionString: (pooled ?? url).href,
        max: 8,
        ...(pooled ? { pooler: 'transaction' as const } : {}),
      }),
    });
    const core = createCore({ store: run.store, keyring, webhooks: { allowHosts: 'localhost' } });
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const post = async (path: string, body: unknown) => {
      const response = await core.handle({
        method: 'POST',
        url: `${ORG}${path}`,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        json: JSON.parse(response.body as string) as Record<string, unknown>,
      };
    };
    const created = await post('/audit-webhooks', {
      name: 'receiver',
      url: `https://localhost:${(receiver.address() as AddressInfo).port}/events`,
    });
    expect(created.status).toBe(201);
    verifier = createWebhookVerifier({ secret: created.json['signing_secret'] as string });

    const env = (name: string) => {
      const store = new URL((pooled ?? url).href);
      store.searchParams.set('application_name', name);
      return {
        LATCHKEY_STORE: store.href,
        ...(pooled ? { LATCHKEY_STORE_POOLER: 'transaction', LATCHKEY_STORE_LISTEN_URL: url.href } : {}),
        LATCHKEY_KEYRING: keyring,
        LATCHKEY_WEBHOOK_ALLOW_HOSTS: 'localhost',
        LATCHKEY_WEBHOOK_TIMEOUT_SECONDS: '2',
        LATCHKEY_DELIVERY_LEASE_SECONDS: '3',
        LATCHKEY_RETRY_SCHEDULE: '0,0.2,0.5,1,2',
        NODE_EXTRA_CA_CERTS: certificate.certFile,
      };
    };
    run.workers.push(
      await startWorker(env('worker-a'), 'bundle'),
      await startWorker(env('worker-b'), 'bundle'),
    );

    // The events (the webhook's creation is the first), eight writers at a time, while the workers deliver.
    let next = 0;
    const writers = Array.from({ length: 8 }, async () => {
      while (next < events - 1) {
        const n = next++;
        const result = await post('/projects', { slug: `p${n}` });
        if (result.status !== 201) throw new Error(`project ${n}: ${result.status}`);
      }
    });
    await Promise.all([...writers, kill(run)]);
    const began = Date.now();
    while (run.applied.size < events) {
      if (Date.now() - began > 180_000) {
        throw new Error(
          `only ${run.applied.size} of ${events} events arrived:\n${run.workers.map((w) => w.output()).join('\n')}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }, 420_000);

  afterAll(async () => {
    for (const worker of run.workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await run.store?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    rmSync(dir, { recursive: true, force: true });
  });
  return run;
}
