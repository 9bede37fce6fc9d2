import { describe, expect, it } from 'vitest';
import { PORTAL_OPERATIONS, portalAllows } from '../portal/capabilities.js';
import { allRoutes } from './index.js';

const operations = new Map(allRoutes.map((route) => [route.operationId, route]));

describe('the operations a portal token reaches', () => {
  it('are routes of the table, never of secret values, people, tokens, backups or the portal itself', () => {
    expect(PORTAL_OPERATIONS.filter((id) => !operations.has(id))).toEqual([]);
    const closed = [
      'pullSecrets',
      'push',
      'addMember',
      'listMembers',
      'updateMember',
      'removeMember',
      'getPermissionMatrix',
      'createToken',
      'listTokens',
      'revokeToken',
      'enrollDevice',
      'listDevices',
      'revokeDevice',
      'createBackup',
      'beginRestore',
      'commitRestore',
      'addWitness',
      'createOrganization',
      'createProject',
      'createEnvironment',
      'updateEnvironment',
      'createPortalSession',
      'listPortalSessions',
      'deletePortalSession',
      'expireAllPortalSessions',
      'createChangeRequest',
      'cancelChangeRequest',
      'applyChangeRequest',
    ];
    expect(closed.filter((id) => !operations.has(id))).toEqual([]);
    expect(PORTAL_OPERATIONS.filter((id) => closed.includes(id))).toEqual([]);
  });

  it('open nothing outside the table, whatever the capabilities', () => {
    const grant = {
      sessionId: 'ps_x',
      capabilities: [
        'audit_webhooks:manage',
        'audit_webhooks:secrets',
        'activity:read',
        'activity:export',
        'changes:review',
      ] as const,
      readOnly: false,
    };
    const open = allRoutes.filter((route) => portalAllows(grant, route).ok).map((r) => r.operationId);
    expect(open.sort()).toEqual([...PORTAL_OPERATIONS].sort());
  });

  it('refuse secret values and, read-only, every write', () => {
    const grant = { sessionId: 'ps_x', capabilities: ['changes:review'] as const, readOnly: false };
    const get = operations.get('getChangeRequest')!;
    expect(portalAllows(grant, get).ok).toBe(true);
    expect(portalAllows(grant, get, { include_values: 'false' }).ok).toBe(true);
    expect(portalAllows(grant, get, { include_values: 'true' }).ok).toBe(false);
    const approve = operations.get('approveChangeRequest')!;
    expect(portalAllows(grant, approve).ok).toBe(true);
    expect(portalAllows({ ...grant, readOnly: true }, approve)).toEqual({
      ok: false,
      reason: 'The portal session is read-only.',
    });
    expect(portalAllows({ ...grant, capabilities: [] }, get).ok).toBe(false);
    // A key's versions tell a reviewer whether it moved, never what it held.
    const versions = operations.get('listSecretVersions')!;
    expect(portalAllows(grant, versions).ok).toBe(true);
    expect(portalAllows(grant, versions, { include_values: 'true' }).ok).toBe(false);
    expect(portalAllows({ ...grant, capabilities: ['activity:read'] }, versions).ok).toBe(false);
  });

  it('bring read with manage, and show a secret only with secrets', () => {
    const manage = { sessionId: 'ps_x', capabilities: ['audit_webhooks:manage'] as const, readOnly: false };
    expect(portalAllows(manage, operations.get('listAuditWebhooks')!).ok).toBe(true);
    expect(portalAllows(manage, operations.get('updateAuditWebhook')!).ok).toBe(true);
    expect(portalAllows(manage, operations.get('createAuditWebhook')!).ok).toBe(false);
    const read = { ...manage, capabilities: ['audit_webhooks:read'] as const };
    expect(portalAllows(read, operations.get('updateAuditWebhook')!).ok).toBe(false);
  });
});
