/**
 * Item: the role x route table, written out by hand here and not derived from the permission table,
 * so a wrong entry there shows as a failure here. Every built-in role and an outsider (another
 * organization's owner) call every route; each cell is the expected status. The developer is granted
 * web/prod only, the viewer web/* (and no other project); a second developer granted only web/dev
 * (the "staging" one) can neither read, push to nor see the history of prod.
 */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext, OTHER_ORG_ADMIN } from '../harness/context.js';
import { CHANGE_ROWS } from './role-table-change-rows.js';
import { DATA_ROWS } from './role-table-data-rows.js';
import { PORTAL_ROWS } from './role-table-portal-rows.js';
import { type Caller, ORGANIZATION_ROWS, ROLES, WEB } from './role-table-rows.js';
import { WITNESS_ROWS } from './role-table-witness-rows.js';
import { WORKLOAD_ROWS } from './role-table-workload-rows.js';

const TABLE = [
  ...ORGANIZATION_ROWS,
  ...DATA_ROWS,
  ...WITNESS_ROWS,
  ...CHANGE_ROWS,
  ...WORKLOAD_ROWS,
  ...PORTAL_ROWS,
];

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
