import { describe, expect, it } from 'vitest';
import { effectiveGrants } from './effective-grants.js';
import { ROLE_PERMISSIONS } from './permissions.js';

describe('effectiveGrants', () => {
  it('gives owners and admins every permission of their role, organization-wide or on all projects', () => {
    const admin = effectiveGrants('admin', [{ project: 'web', environments: ['prod'] }]);
    expect(admin.map((g) => g.permission)).toEqual(ROLE_PERMISSIONS.admin);
    expect(admin.find((g) => g.permission === 'secrets:push')).toEqual({
      permission: 'secrets:push',
      scope: 'all projects',
    });
    expect(admin.find((g) => g.permission === 'tokens:manage')).toEqual({
      permission: 'tokens:manage',
      scope: 'organization',
    });
  });

  it('gives developers and viewers their scoped permissions once per grant', () => {
    const grants = [
      { project: 'web', environments: ['prod'] },
      { project: 'api', environments: ['*'] },
    ];
    const viewer = effectiveGrants('viewer', grants);
    expect(viewer).toEqual([
      { permission: 'organization:read', scope: 'organization' },
      { permission: 'projects:read', scope: 'project', project: 'web' },
      { permission: 'projects:read', scope: 'project', project: 'api' },
      { permission: 'members:read', scope: 'organization' },
      { permission: 'secrets:read', scope: 'environment', project: 'web', environments: ['prod'] },
      { permission: 'secrets:read', scope: 'environment', project: 'api', environments: ['*'] },
      { permission: 'activity:read', scope: 'environment', project: 'web', environments: ['prod'] },
      { permission: 'activity:read', scope: 'environment', project: 'api', environments: ['*'] },
    ]);
  });

  it('gives a developer without grants only the organization-scoped permissions', () => {
    expect(effectiveGrants('developer', []).every((g) => g.scope === 'organization')).toBe(true);
  });
});
