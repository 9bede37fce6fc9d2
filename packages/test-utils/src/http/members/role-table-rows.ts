/**
 * The role x route table, part 1: its types and the rows of the organization itself (backups,
 * members, projects, environments, tokens, devices). Part 2 is `role-table-data-rows.ts`.
 */
import { emptyBackupCounts } from '@latchkey/core';
import { ADMIN, type ConformanceContext, type Member } from '../harness/context.js';
import type { TargetResponse } from '../harness/http-target.js';
export type Role = 'owner' | 'admin' | 'developer' | 'viewer' | 'outsider';
export const ROLES: Role[] = ['owner', 'admin', 'developer', 'viewer', 'outsider'];

export const ORG = '/api/v2/organizations/acme';
export const WEB = `${ORG}/projects/web`;

export interface Caller {
  role: Role;
  token: string;
  /** The caller's enrolled device, when the role may enroll one. */
  device: Member | null;
}

export interface Row {
  operationId: string;
  /** Statuses by role; the call is made once per role. */
  expect: Record<Role, number>;
  call(ctx: ConformanceContext, who: Caller): Promise<TargetResponse>;
}

export const all = (status: number, outsider = 404): Record<Role, number> => ({
  owner: status,
  admin: status,
  developer: status,
  viewer: status,
  outsider,
});
export const managers = (status: number): Record<Role, number> => ({
  owner: status,
  admin: status,
  developer: 403,
  viewer: 403,
  outsider: 404,
});

/** The rows of the organization, its people, projects, environments, tokens and devices. */
export const ORGANIZATION_ROWS: Row[] = [
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
];
