/**
 * Item: the role x route table, written out by hand here and not derived from the permission table,
 * so a wrong entry there shows as a failure here. Every built-in role and an outsider (another
 * organization's owner) call every route; each cell is the expected status. The developer is granted
 * web/prod only, the viewer web/* (and no other project); a second developer granted only web/dev
 * (the "staging" one) can neither read, push to nor see the history of prod.
 */
import { emptyBackupCounts } from '@latchkey/core';
import { expect } from 'vitest';
import type { TargetResponse } from '../http-target.js';
import { describe, it } from '../keyed.js';
import { ADMIN, type ConformanceContext, type Member, OTHER_ORG_ADMIN } from './context.js';
import { PUBLIC_HOST } from './fake-network.js';

type Role = 'owner' | 'admin' | 'developer' | 'viewer' | 'outsider';
const ROLES: Role[] = ['owner', 'admin', 'developer', 'viewer', 'outsider'];

const ORG = '/api/v2/organizations/acme';
const WEB = `${ORG}/projects/web`;

interface Caller {
  role: Role;
  token: string;
  /** The caller's enrolled device, when the role may enroll one. */
  device: Member | null;
}

interface Row {
  operationId: string;
  /** Statuses by role; the call is made once per role. */
  expect: Record<Role, number>;
  call(ctx: ConformanceContext, who: Caller): Promise<TargetResponse>;
}

const all = (status: number, outsider = 404): Record<Role, number> => ({
  owner: status,
  admin: status,
  developer: status,
  viewer: status,
  outsider,
});
const managers = (status: number): Record<Role, number> => ({
  owner: status,
  admin: status,
  developer: 403,
  viewer: 403,
  outsider: 404,
});

const TABLE: Row[] = [
  {
    operationId: 'createOrganization',
    expect: all(201, 201),
    call: (c, w) => c.send('POST', '/api/v2/organizations', { slug: `rt-org-${w.role}` }, w.token),
  },
  {
    operationId: 'createBackup',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/backup`, undefined, w.token),
  },
  // Restores are for owners only. acme is not empty, so the owner's begin (without force) is a 409,
  // and a session id nobody began is a 404: nothing here changes acme.
  {
    operationId: 'beginRestore',
    expect: { ...managers(403), owner: 409 },
    call: (c, w) =>
      c.send(
        'POST',
        `${ORG}/restores`,
        {
          manifest: {
            sha256: '0'.repeat(64),
            bytes: 1,
            counts: emptyBackupCounts(),
          },
        },
        w.token,
      ),
  },
  {
    operationId: 'putRestorePart',
    expect: { ...managers(403), owner: 404 },
    call: (c, w) => c.send('PUT', `${ORG}/restores/rst_0000000000000000/parts/0`, { data: 'x\n' }, w.token),
  },
  {
    operationId: 'commitRestore',
    expect: { ...managers(403), owner: 404 },
    call: (c, w) => c.send('POST', `${ORG}/restores/rst_0000000000000000/commit`, undefined, w.token),
  },
  {
    operationId: 'abandonRestore',
    expect: { ...managers(403), owner: 404 },
    call: (c, w) => c.send('DELETE', `${ORG}/restores/rst_0000000000000000`, undefined, w.token),
  },
  {
    operationId: 'getMe',
    expect: all(200, 200),
    call: (c, w) => c.send('GET', '/api/v2/me', undefined, w.token),
  },
  {
    operationId: 'listEventTypes',
    expect: all(200, 200),
    call: (c, w) => c.send('GET', '/api/v2/event-types', undefined, w.token),
  },
  {
    operationId: 'getOrganization',
    expect: all(200),
    call: (c, w) => c.send('GET', ORG, undefined, w.token),
  },
  {
    operationId: 'createProject',
    expect: managers(201),
    call: (c, w) => c.send('POST', `${ORG}/projects`, { slug: `rt-${w.role}` }, w.token),
  },
  {
    operationId: 'listProjects',
    expect: all(200),
    call: (c, w) => c.send('GET', `${ORG}/projects`, undefined, w.token),
  },
  {
    operationId: 'createEnvironment',
    expect: managers(201),
    call: (c, w) => c.send('POST', `${WEB}/environments`, { slug: `rt-${w.role}` }, w.token),
  },
  {
    operationId: 'listEnvironments',
    expect: all(200),
    call: (c, w) => c.send('GET', `${WEB}/environments`, undefined, w.token),
  },
  {
    operationId: 'listEnvironments',
    expect: { owner: 200, admin: 200, developer: 403, viewer: 403, outsider: 404 },
    call: (c, w) => c.send('GET', `${ORG}/projects/api/environments`, undefined, w.token),
  },
  {
    operationId: 'updateEnvironment',
    expect: managers(200),
    call: (c, w) =>
      c.send('PATCH', `${WEB}/environments/dev`, { require_strict_conflict_mode: false }, w.token),
  },
  {
    operationId: 'addMember',
    expect: managers(201),
    call: (c, w) => c.send('POST', `${ORG}/members`, { user: `rt-added-${w.role}`, role: 'viewer' }, w.token),
  },
  {
    operationId: 'listMembers',
    expect: all(200),
    call: (c, w) => c.send('GET', `${ORG}/members`, undefined, w.token),
  },
  {
    operationId: 'updateMember',
    expect: managers(200),
    call: async (c, w) => {
      await c.addMember(`rt-changed-${w.role}`, 'viewer');
      return c.send('PATCH', `${ORG}/members/rt-changed-${w.role}`, { role: 'developer' }, w.token);
    },
  },
  {
    operationId: 'removeMember',
    expect: managers(200),
    call: async (c, w) => {
      await c.addMember(`rt-removed-${w.role}`, 'viewer');
      return c.send('DELETE', `${ORG}/members/rt-removed-${w.role}`, undefined, w.token);
    },
  },
  {
    operationId: 'getPermissionMatrix',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/permission-matrix`, undefined, w.token),
  },
  {
    operationId: 'createToken',
    expect: managers(201),
    call: (c, w) => c.send('POST', `${ORG}/tokens`, { user: 'dev', name: `rt-${w.role}` }, w.token),
  },
  {
    operationId: 'listTokens',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/tokens`, undefined, w.token),
  },
  {
    operationId: 'revokeToken',
    expect: managers(200),
    call: async (c, w) => {
      const created = await c.send(
        'POST',
        `${ORG}/tokens`,
        { user: 'viewer', name: `rt-revoked-${w.role}` },
        ADMIN,
      );
      return c.send(
        'POST',
        `${ORG}/tokens/${(created.json as { id: string }).id}/revoke`,
        undefined,
        w.token,
      );
    },
  },
  {
    operationId: 'enrollDevice',
    expect: { owner: 201, admin: 201, developer: 201, viewer: 403, outsider: 404 },
    call: (c, w) =>
      c.send(
        'POST',
        `${ORG}/devices`,
        { name: 'rt', public_key: 'ZQRPE8F0U7ZvWMy7AakmIGkfEcJr7AGmAvUFvbAqTkA' },
        w.token,
      ),
  },
  {
    operationId: 'listDevices',
    expect: { owner: 200, admin: 200, developer: 200, viewer: 403, outsider: 404 },
    call: (c, w) => c.send('GET', `${ORG}/devices`, undefined, w.token),
  },
  {
    operationId: 'revokeDevice',
    expect: { owner: 200, admin: 200, developer: 200, viewer: 403, outsider: 404 },
    call: async (c, w) => {
      // Each revokes a device of their own (the viewer, who may enroll none, one of the developer's).
      const own = w.device ? await c.enroll(w.token) : c.developer;
      return c.send('POST', `${ORG}/devices/${own.deviceId}/revoke`, undefined, w.token);
    },
  },
  {
    operationId: 'push',
    expect: { owner: 200, admin: 200, developer: 200, viewer: 403, outsider: 404 },
    call: (c, w) =>
      w.device
        ? c.push(w.device, { changes: [{ key: `RT_${w.role.toUpperCase()}`, value: 'v' }] })
        : c.send('POST', `${WEB}/environments/prod/push`, {}, w.token),
  },
  {
    operationId: 'pullSecrets',
    expect: all(200),
    call: (c, w) => c.send('GET', `${WEB}/environments/prod/secrets`, undefined, w.token),
  },
  {
    operationId: 'pullSecrets',
    expect: { owner: 200, admin: 200, developer: 403, viewer: 200, outsider: 404 },
    call: (c, w) => c.send('GET', `${WEB}/environments/dev/secrets`, undefined, w.token),
  },
  {
    operationId: 'listSecretVersions',
    expect: all(200),
    call: (c, w) => c.send('GET', `${WEB}/environments/prod/secrets/K/versions`, undefined, w.token),
  },
  {
    operationId: 'listSecretVersions',
    expect: { owner: 200, admin: 200, developer: 403, viewer: 200, outsider: 404 },
    call: (c, w) =>
      c.send('GET', `${WEB}/environments/dev/secrets/K/versions?include_values=true`, undefined, w.token),
  },
  {
    operationId: 'getOrganizationHistory',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/history`, undefined, w.token),
  },
  {
    operationId: 'getProjectHistory',
    expect: all(200),
    call: (c, w) => c.send('GET', `${WEB}/history`, undefined, w.token),
  },
  {
    operationId: 'getProjectHistory',
    expect: { owner: 200, admin: 200, developer: 403, viewer: 403, outsider: 404 },
    call: (c, w) => c.send('GET', `${ORG}/projects/api/history`, undefined, w.token),
  },
  {
    operationId: 'getEnvironmentHistory',
    expect: all(200),
    call: (c, w) => c.send('GET', `${WEB}/environments/prod/history`, undefined, w.token),
  },
  {
    operationId: 'getEnvironmentHistory',
    expect: { owner: 200, admin: 200, developer: 403, viewer: 200, outsider: 404 },
    call: (c, w) => c.send('GET', `${WEB}/environments/dev/history`, undefined, w.token),
  },
  {
    operationId: 'exportActivity',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/activity/export`, undefined, w.token),
  },
  {
    operationId: 'getActivityCheckpoint',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/activity/checkpoint`, undefined, w.token),
  },
  {
    operationId: 'listAuditWebhooks',
    expect: managers(200),
    call: (c, w) => c.send('GET', HOOKS, undefined, w.token),
  },
  {
    operationId: 'createAuditWebhook',
    expect: managers(201),
    call: (c, w) =>
      c.send('POST', HOOKS, { name: `rt-${w.role}`, url: `https://${PUBLIC_HOST}/${w.role}` }, w.token),
  },
  ...(
    [
      ['getAuditWebhook', 'GET', '', 200],
      ['rotateAuditWebhookSecret', 'POST', '/rotate-secret', 200],
      ['listAuditWebhookDeliveries', 'GET', '/deliveries', 200],
      ['disableAuditWebhook', 'POST', '/disable', 200],
      ['enableAuditWebhook', 'POST', '/enable', 200],
      ['testAuditWebhook', 'POST', '/test', 200],
    ] as const
  ).map(([operationId, method, suffix, status]) => ({
    operationId,
    expect: managers(status),
    call: async (c: ConformanceContext, w: Caller) =>
      c.send(method, `${HOOKS}/${await tableWebhook(c)}${suffix}`, undefined, w.token),
  })),
  {
    operationId: 'updateAuditWebhook',
    expect: managers(200),
    call: async (c, w) =>
      c.send('PATCH', `${HOOKS}/${await tableWebhook(c)}`, { name: `role table ${w.role}` }, w.token),
  },
  {
    operationId: 'recoverAuditWebhook',
    expect: managers(202),
    call: async (c, w) =>
      c.send(
        'POST',
        `${HOOKS}/${await tableWebhook(c)}/recover`,
        { since: new Date().toISOString() },
        w.token,
      ),
  },
  {
    operationId: 'getAuditWebhookMetrics',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${HOOKS}/metrics?window=7d`, undefined, w.token),
  },
  {
    operationId: 'getAuditWebhookMetricsTimeline',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${HOOKS}/metrics/timeline?window=30d`, undefined, w.token),
  },
];

const HOOKS = `${ORG}/audit-webhooks`;
const tableWebhooks = new WeakMap<ConformanceContext, Promise<string>>();

/** A webhook of acme the table's rows act on, created once per suite by the owner. */
function tableWebhook(c: ConformanceContext): Promise<string> {
  let id = tableWebhooks.get(c);
  if (!id) {
    id = c
      .send('POST', HOOKS, { name: 'role table', url: `https://${PUBLIC_HOST}/table` }, ADMIN)
      .then((response) => (response.json as { id: string }).id);
    tableWebhooks.set(c, id);
  }
  return id;
}

/** Registers the role x route table. */
export function describeRoleTableTests(ctx: ConformanceContext): void {
  describe('role x route table', () => {
    it('covers every authenticated route of the core', () => {
      const routes = ctx.core.routes.filter((r) => r.auth !== false).map((r) => r.operationId);
      expect([...new Set(TABLE.map((row) => row.operationId))].sort()).toEqual([...new Set(routes)].sort());
    });

    it('answers every role on every route as the table says', async () => {
      const adminToken = await ctx.addMember('rt-admin', 'admin');
      const callers: Caller[] = [
        { role: 'owner', token: ADMIN, device: ctx.admin },
        { role: 'admin', token: adminToken, device: await ctx.enroll(adminToken) },
        { role: 'developer', token: ctx.developer.token, device: ctx.developer },
        { role: 'viewer', token: ctx.viewerToken, device: null },
        { role: 'outsider', token: OTHER_ORG_ADMIN, device: null },
      ];
      const wrong: string[] = [];
      for (const row of TABLE) {
        for (const who of callers) {
          const response = await row.call(ctx, who);
          if (response.status !== row.expect[who.role]) {
            wrong.push(
              `${row.operationId} as ${who.role}: ${response.status} (expected ${row.expect[who.role]}) ${response.text.slice(0, 160)}`,
            );
          }
        }
      }
      expect(wrong).toEqual([]);
      expect(ROLES).toHaveLength(5);
    });

    it('keeps a developer granted only staging (web/dev) out of production (web/prod)', async () => {
      const token = await ctx.addMember('rt-staging', 'developer', [
        { project: 'web', environments: ['dev'] },
      ]);
      const device = await ctx.enroll(token);
      const prod = `${WEB}/environments/prod`;
      expect((await ctx.send('GET', `${prod}/secrets`, undefined, token)).status).toBe(403);
      expect((await ctx.send('GET', `${prod}/history`, undefined, token)).status).toBe(403);
      expect((await ctx.push(device, { changes: [{ key: 'FROM_STAGING', value: 'x' }] })).status).toBe(403);
      const projectHistory = await ctx.send('GET', `${WEB}/history?limit=500`, undefined, token);
      const seen = (projectHistory.json as { events: { environment?: string }[] }).events;
      expect(seen.some((e) => e.environment === 'prod')).toBe(false);
      // Staging itself is theirs.
      expect((await ctx.send('GET', `${WEB}/environments/dev/secrets`, undefined, token)).status).toBe(200);
      expect(
        (
          await ctx.push(
            device,
            { changes: [{ key: 'FROM_STAGING', value: 'x' }] },
            { organization: 'acme', project: 'web', environment: 'dev' },
            `${WEB}/environments/dev`,
          )
        ).status,
      ).toBe(200);
    });
  });
}
