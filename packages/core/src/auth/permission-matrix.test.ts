import { describe, expect, it } from 'vitest';
import { ROLES } from '../model/roles.js';
import { permissionMatrix } from './permission-matrix.js';
import { PERMISSIONS, ROLE_PERMISSIONS } from './permissions.js';

describe('permissionMatrix', () => {
  it('lists every role and permission, and marks exactly what each role holds', () => {
    const { roles, permissions, matrix } = permissionMatrix();
    expect(roles.map((r) => r.role)).toEqual([...ROLES]);
    expect(permissions.map((p) => p.name)).toEqual(Object.keys(PERMISSIONS));
    for (const role of ROLES) {
      const held = Object.entries(matrix[role]).filter(([, holds]) => holds);
      expect(held.map(([name]) => name).sort()).toEqual([...ROLE_PERMISSIONS[role]].sort());
    }
    expect(matrix.admin['backup:restore']).toBe(false);
    expect(matrix.owner['backup:restore']).toBe(true);
  });

  it('gives each permission its scope and description', () => {
    const push = permissionMatrix().permissions.find((p) => p.name === 'secrets:push');
    expect(push).toEqual({ name: 'secrets:push', ...PERMISSIONS['secrets:push'] });
  });
});
