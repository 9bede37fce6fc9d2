import { describe, expect, it } from 'vitest';
import { authorize, mayActOn, mayChangeRole, type Principal } from './permissions.js';

const principal = (role: Principal['role'], grants: Principal['grants'] = []): Principal => ({
  organizationId: 'org_1',
  user: 'u',
  role,
  grants,
});

describe('authorize', () => {
  it('lets owners and admins act everywhere, force included', () => {
    for (const role of ['owner', 'admin'] as const) {
      expect(
        authorize(principal(role), 'secrets:force_overwrite', { project: 'p', environment: 'e' }),
      ).toEqual({ ok: true });
      expect(authorize(principal(role), 'audit_webhooks:manage')).toEqual({ ok: true });
    }
  });

  it('scopes developers to granted projects and environments', () => {
    const dev = principal('developer', [{ project: 'web', environments: ['prod'] }]);
    expect(authorize(dev, 'secrets:push', { project: 'web', environment: 'prod' }).ok).toBe(true);
    expect(authorize(dev, 'secrets:push', { project: 'web', environment: 'dev' })).toEqual({
      ok: false,
      reason: 'no grant on environment dev',
    });
    expect(authorize(dev, 'secrets:push', { project: 'api', environment: 'prod' }).ok).toBe(false);
    expect(authorize(dev, 'activity:read', { project: 'web' }).ok).toBe(true);
    expect(authorize(dev, 'secrets:force_overwrite', { project: 'web', environment: 'prod' }).ok).toBe(false);
    expect(authorize(dev, 'members:manage').ok).toBe(false);
  });

  it('gives "*" every environment of the project, and viewers no push', () => {
    const viewer = principal('viewer', [{ project: 'web', environments: ['*'] }]);
    expect(authorize(viewer, 'secrets:read', { project: 'web', environment: 'anything' }).ok).toBe(true);
    expect(authorize(viewer, 'secrets:push', { project: 'web', environment: 'anything' })).toEqual({
      ok: false,
      reason: 'role viewer lacks secrets:push',
    });
  });
});

describe('mayActOn and mayChangeRole', () => {
  it('lets a role act on its own rank and below, never above', () => {
    const rank = ['viewer', 'developer', 'admin', 'owner'] as const;
    for (const [i, actor] of rank.entries()) {
      for (const [j, target] of rank.entries()) {
        expect(mayActOn(principal(actor), target).ok, `${actor} on ${target}`).toBe(j <= i);
      }
    }
    expect(mayActOn(principal('admin'), 'owner')).toEqual({
      ok: false,
      reason: 'role admin cannot act on a member with role owner',
    });
  });

  it('needs both the old and the new role within reach', () => {
    expect(mayChangeRole(principal('admin'), 'developer', 'admin').ok).toBe(true);
    expect(mayChangeRole(principal('admin'), 'developer', 'owner').ok).toBe(false);
    expect(mayChangeRole(principal('admin'), 'owner', 'viewer').ok).toBe(false);
    expect(mayChangeRole(principal('owner'), 'owner', 'viewer').ok).toBe(true);
  });
});
