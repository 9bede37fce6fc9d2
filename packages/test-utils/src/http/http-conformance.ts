/**
 * The HTTP conformance suite: one body of tests that every way of serving the core must pass,
 * in-process through `core.handle` and over a real loopback server for each adapter. Its parts live
 * beside it, one file per group; they share the state of {@link ConformanceContext}.
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
import { describeKeyed, type SkipList } from '../keyed/keyed.js';
import { startTestIssuer } from '../oidc/test-issuer.js';
import { describeCheckpointNoteTests } from './activity/checkpoint-notes.js';
import { describeEventTypeTests } from './activity/event-types.js';
import { describeExportTests } from './activity/export.js';
import { describeHistoryTests } from './activity/history.js';
import { describeOfflineEvidenceTests } from './activity/offline-evidence.js';
import { describeProofTests } from './activity/proofs.js';
import { describeWitnessRegistrationTests } from './activity/witness-registration.js';
import { describeAuditWebhookFilterTests } from './audit-webhooks/audit-webhook-filters.js';
import { describeAuditWebhookReplayTests } from './audit-webhooks/audit-webhook-replay.js';
import { describeWebhookTestEventTests } from './audit-webhooks/audit-webhook-test-events.js';
import { describeAuditWebhookTests } from './audit-webhooks/audit-webhooks.js';
import { describeMetricsSeriesTests } from './audit-webhooks/metrics-series.js';
import { describeReceiverCredentialTests } from './audit-webhooks/receiver-credentials.js';
import { describeReceiverCredentialBackupTests } from './audit-webhooks/receiver-credentials-backup.js';
import { describeReceiverHandshakeTests } from './audit-webhooks/receiver-handshakes.js';
import { describeSignatureSchemeChangeTests } from './audit-webhooks/signature-scheme-changes.js';
import { describeSignatureSchemeTests } from './audit-webhooks/signature-schemes.js';
import { describeSigningKeyBoundTests } from './audit-webhooks/signing-key-bounds.js';
import { describeWebhookInputBoundTests } from './audit-webhooks/webhook-input-bounds.js';
import { describeBackupTests } from './backup/backup.js';
import { describeRestoreTests } from './backup/restore.js';
import { describeRestoreLimitTests } from './backup/restore-limits.js';
import { describeRestoreRequestTests } from './backup/restore-requests.js';
import { describeRestoreRuleTests } from './backup/restore-rules.js';
import { describeRestoreSigningKeyTests } from './backup/restore-signing-keys.js';
import { describeRestoreTreeTests } from './backup/restore-tree.js';
import { describeRestoreVersionTests } from './backup/restore-versions.js';
import { describeChangeRequestApplyTests } from './change-requests/change-request-apply.js';
import { describeChangeRequestDeliveryTests } from './change-requests/change-request-deliveries.js';
import { describeChangeRequestLifecycleTests } from './change-requests/change-request-lifecycle.js';
import { describeChangeRequestTests } from './change-requests/change-requests.js';
import { type ConformanceKeys, conformanceCoreOptions } from './conformance-core.js';
import {
  ADDRESS,
  ADMIN,
  type ConformanceContext,
  ENV_PATH,
  type Member,
  OTHER_ORG_ADMIN,
} from './harness/context.js';
import { expectError } from './harness/expect-error.js';
import { conformanceTransport } from './harness/fake-network.js';
import type { StartTarget } from './harness/http-target.js';
import { describeCreateOrganizationTests } from './members/create-organization.js';
import { describeMeTests } from './members/me.js';
import { describeMemberLifecycleTests } from './members/member-lifecycle.js';
import { describeOrganizationLimitTests } from './members/organization-limits.js';
import { describeRoleTableTests } from './members/role-table.js';
import { describeRoleTests } from './members/roles.js';
import { describeWhoActsOnWhomTests } from './members/who-acts-on-whom.js';
import { describeNeighbourTests } from './neighbours/neighbours.js';
import { describePortalBoundTests } from './portal/portal-bounds.js';
import { describePortalEndingTests } from './portal/portal-endings.js';
import { describePortalReviewTests } from './portal/portal-reviews.js';
import { describePortalRightsTests } from './portal/portal-rights.js';
import { describePortalSessionTests } from './portal/portal-sessions.js';
import { describeDeviceKeyTests } from './pushes/device-keys.js';
import { describePushRefusalTests } from './pushes/push-refusals.js';
import { describePushTests } from './pushes/pushes.js';
import { describeSecretVersionTests } from './pushes/secret-versions.js';
import type { RemoteServer } from './remote/remote-server.js';
import { connectRemoteSuite } from './remote/remote-suite.js';
import { describeClockTests } from './requests/clock.js';
import { describeMediaTypeTests } from './requests/media-types.js';
import { describeOpenApiStatusTests } from './requests/openapi-statuses.js';
import { describeRequestTests } from './requests/requests.js';
import { describeWellFormedTextTests } from './requests/well-formed-text.js';
import { describeWorkloadIdentityTests } from './workload/workload-identity.js';
import { describeWorkloadTokenTests } from './workload/workload-tokens.js';

export { expectError };

/** Options of {@link describeHttpConformance}. */
export interface HttpConformanceOptions {
  /** Names the way of serving (and the store, when not memory) in the report. */
  name: string;
  /** Serves the core the suite built and bootstrapped. */
  start: StartTarget;
  /** An empty store for the core; the memory store when absent. The suite closes it at the end. */
  store?: () => Promise<LatchkeyStore>;
  /** Tests this target skips, by name, each with the reason. */
  skip?: SkipList;
  /**
   * Registers only the noisy-neighbour tests (another organization's p99 while one is busy), which
   * time requests and so run apart from the rest, on a machine nothing else is using; without it,
   * everything but them. An object registers them too, with the p99 bound of the test where one
   * owner does everything at once (default 100 ms), for a store whose server shares the machine.
   */
  neighbours?: boolean | { allAtOnceP99Ms: number };
  /**
   * Runs the suite against a server in a process of its own (see `remote/`): the server builds the
   * suite's core on its own store, and `store` is not used; `start` then serves only the other
   * cores a few tests build (on the server's store, through the channel).
   */
  remote?: RemoteServer;
}

/** Registers the suite for one way of serving the core (on one store). */
export function describeHttpConformance({
  name,
  start,
  store,
  skip = {},
  neighbours = false,
  remote,
}: HttpConformanceOptions): void {
  describeKeyed(`HTTP conformance: ${neighbours ? 'neighbours, ' : ''}${name}`, skip, () => {
    const ctx = createConformanceContext();
    serveForTheSuite(ctx, start, remote ?? store);

    if (neighbours) {
      describeNeighbourTests(ctx, neighbours === true ? undefined : neighbours.allAtOnceP99Ms);
      return;
    }
    describeAllTests(ctx);
  });
}

/** The context the parts share, with its helpers: the core, its target and members come in `beforeAll`. */
function createConformanceContext(): ConformanceContext {
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
function serveForTheSuite(
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

/** Every group of the suite, in the order they run. */
function describeAllTests(ctx: ConformanceContext): void {
  describeRequestTests(ctx);
  describePushTests(ctx);
  describePushRefusalTests(ctx);
  describeChangeRequestTests(ctx);
  describeChangeRequestApplyTests(ctx);
  describeChangeRequestLifecycleTests(ctx);
  describeChangeRequestDeliveryTests(ctx);
  describeSecretVersionTests(ctx);
  describeWellFormedTextTests(ctx);
  describeRoleTests(ctx);
  describeWhoActsOnWhomTests(ctx);
  describeMemberLifecycleTests(ctx);
  describeCreateOrganizationTests(ctx);
  describeOrganizationLimitTests(ctx);
  describeMeTests(ctx);
  describeBackupTests(ctx);
  describeRestoreTests(ctx);
  describeRestoreRequestTests(ctx);
  describeRestoreLimitTests(ctx);
  describeRestoreRuleTests(ctx);
  describeRestoreTreeTests(ctx);
  describeRestoreVersionTests(ctx);
  describeRestoreSigningKeyTests(ctx);
  describeHistoryTests(ctx);
  describeExportTests(ctx);
  describeWitnessRegistrationTests(ctx);
  describeCheckpointNoteTests(ctx);
  describeProofTests(ctx);
  describeOfflineEvidenceTests(ctx);
  describeRoleTableTests(ctx);
  describeDeviceKeyTests(ctx);
  describeClockTests(ctx);
  describeMediaTypeTests(ctx);
  describeOpenApiStatusTests(ctx);
  describeAuditWebhookTests(ctx);
  describeWebhookTestEventTests(ctx);
  describeAuditWebhookFilterTests(ctx);
  describeReceiverCredentialTests(ctx);
  describeReceiverCredentialBackupTests(ctx);
  describeWebhookInputBoundTests(ctx);
  describeReceiverHandshakeTests(ctx);
  describeAuditWebhookReplayTests(ctx);
  describeMetricsSeriesTests(ctx);
  describeEventTypeTests(ctx);
  describeSignatureSchemeTests(ctx);
  describeSignatureSchemeChangeTests(ctx);
  describeSigningKeyBoundTests(ctx);
  describeWorkloadIdentityTests(ctx);
  describeWorkloadTokenTests(ctx);
  describePortalSessionTests(ctx);
  describePortalEndingTests(ctx);
  describePortalRightsTests(ctx);
  describePortalBoundTests(ctx);
  describePortalReviewTests(ctx);
}
