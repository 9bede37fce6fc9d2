/**
 * How the HTTP conformance suite (`http-conformance.ts`) sets up for one way of serving the core:
 * the context its groups share, with its helpers, and the core it builds, bootstraps and serves for
 * the whole suite.
 */
import {
  type ActivityEvent,
  createCore,
  generateAuditKey,
  generateDeviceKeyPair,
  generateKeyringKey,
  type LatchkeyStore,
  signPush,
} from '@latchkey/core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startTestIssuer } from '../oidc/test-issuer.js';
import { type ConformanceKeys, conformanceCoreOptions } from './conformance-core.js';
import {
  ADDRESS,
  ADMIN,
  type ConformanceContext,
  ENV_PATH,
  type Member,
  OTHER_ORG_ADMIN,
} from './harness/context.js';
import { conformanceTransport } from './harness/fake-network.js';
import type { StartTarget } from './harness/http-target.js';
import type { RemoteServer } from './remote/remote-server.js';
import { connectRemoteSuite } from './remote/remote-suite.js';

/** The context the parts share, with its helpers: the core, its target and members come in `beforeAll`. */
export function createConformanceContext(): ConformanceContext {
  const ctx = { clock: { pinnedMs: null } } as ConformanceContext;

  ctx.send = (method, path, body?, token = ADMIN, headers = {}) =>
    ctx.target.send({
      method,
      path,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });

  ctx.push = (who, push, address = ADDRESS, path = ENV_PATH) =>
    ctx.send(
      'POST',
      `${path}/push`,
      signPush(
        { device_id: who.deviceId, ...push },
        address,
        who.keys.privateKey,
        () => ctx.clock.pinnedMs ?? Date.now(),
      ),
      who.token,
    );

  ctx.events = async (type?: string): Promise<ActivityEvent[]> => {
    const org = (await ctx.core.store.organizations.getBySlug('acme'))!;
    return ctx.core.store.activity.list({
      organizationId: org.id,
      limit: 100_000,
      ...(type ? { types: [type] } : {}),
    });
  };

  ctx.enroll = async (token: string): Promise<Member> => {
    const keys = generateDeviceKeyPair();
    const response = await ctx.send(
      'POST',
      '/api/v2/organizations/acme/devices',
      { name: 'laptop', public_key: keys.publicKey },
      token,
    );
    expect(response.status).toBe(201);
    return { token, keys, deviceId: (response.json as { id: string }).id };
  };

  ctx.addMember = async (user: string, role: string, grants?: unknown): Promise<string> => {
    expect(
      (await ctx.send('POST', '/api/v2/organizations/acme/members', { user, role, grants })).status,
    ).toBe(201);
    const created = await ctx.send('POST', '/api/v2/organizations/acme/tokens', {
      user,
      name: `${user} token`,
    });
    expect(created.status).toBe(201);
    return (created.json as { token: string }).token;
  };

  ctx.pull = async (path = ENV_PATH) => {
    const response = await ctx.send('GET', `${path}/secrets`);
    expect(response.status).toBe(200);
    return (response.json as { secrets: { key: string; value: string; version: number }[] }).secrets;
  };
  return ctx;
}

/**
 * Builds the core on an empty store (the memory store when `store` is absent; a spawned server's
 * own when it is remote), bootstraps two organizations with their projects and members, serves it
 * with `start` (or the server serves it) for the whole suite, and checks after each test that
 * every answer matched its schema and nothing was logged as failed.
 */
export function serveForTheSuite(
  ctx: ConformanceContext,
  start: StartTarget,
  store?: (() => Promise<LatchkeyStore>) | RemoteServer,
): void {
  const { send, enroll } = ctx;
  let unexpected: () => Promise<unknown[]> = async () => [];
  ctx.webhookTransport = conformanceTransport();
  ctx.keyring = { current: 'k1', keys: { k1: generateKeyringKey() } };
  const audit = generateAuditKey();
  ctx.auditPublicKey = audit.publicKey;
  ctx.trustedAuditKey = generateAuditKey();
  const keys: ConformanceKeys = {
    auditKeyPem: audit.privateKeyPem,
    trustedAuditKeys: [ctx.trustedAuditKey.publicKey],
    keyring: ctx.keyring,
  };
  const remote = typeof store === 'object' ? store : undefined;

  beforeAll(async () => {
    ctx.issuer = await startTestIssuer('issuer.test');
    keys.trustedIssuers = [{ issuer: ctx.issuer.issuer, ca: ctx.issuer.ca }];
    if (remote) {
      const suite = await connectRemoteSuite(remote, keys, ctx);
      ctx.core = suite.core;
      ctx.target = suite.target;
      unexpected = suite.failures;
    } else {
      const failures: unknown[] = [];
      ctx.core = createCore({
        ...(typeof store === 'function' ? { store: await store() } : {}),
        ...conformanceCoreOptions(keys, {
          transport: ctx.webhookTransport,
          now: () => ctx.clock.pinnedMs ?? Date.now(),
          onError: (message, meta) => failures.push({ message, meta }),
        }),
      });
      unexpected = async () => failures.splice(0);
    }
    await ctx.core.bootstrap({ organization: 'acme', user: 'admin', token: ADMIN });
    await ctx.core.bootstrap({ organization: 'globex', user: 'boss', token: OTHER_ORG_ADMIN });
    if (!remote) ctx.target = await start(ctx.core);
    ctx.serve = start;
    expect((await send('POST', '/api/v2/organizations/acme/projects', { slug: 'web' })).status).toBe(201);
    expect((await send('POST', '/api/v2/organizations/acme/projects', { slug: 'api' })).status).toBe(201);
    for (const slug of ['prod', 'dev']) {
      expect(
        (await send('POST', '/api/v2/organizations/acme/projects/web/environments', { slug })).status,
      ).toBe(201);
    }
    const strict = await send('POST', '/api/v2/organizations/acme/projects/web/environments', {
      slug: 'locked',
      require_strict_conflict_mode: true,
    });
    expect(strict.status).toBe(201);
    ctx.admin = await enroll(ADMIN);
    ctx.developer = await enroll(
      await ctx.addMember('dev', 'developer', [{ project: 'web', environments: ['prod'] }]),
    );
    ctx.viewerToken = await ctx.addMember('viewer', 'viewer', [{ project: 'web', environments: ['*'] }]);
  });

  afterAll(async () => {
    await ctx.target?.close();
    if (!remote) await ctx.core?.store.close?.();
    await ctx.issuer?.close();
  });

  afterEach(async () => {
    ctx.clock.pinnedMs = null;
    // Every answer matched its documented schema and nothing failed unexpectedly.
    expect(await unexpected()).toEqual([]);
  });
}
