/** The role table as the permission matrix shows it: what each role holds, and where each permission applies. */

import { ROLES, type Role } from '../model/roles.js';
import { PERMISSIONS, type Permission, ROLE_PERMISSIONS } from './permissions.js';

const NAMES = Object.keys(PERMISSIONS) as Permission[];

/** The permission matrix without its members: the same for every organization, read from the role table. */
export interface PermissionMatrix {
  /** Each role with the permissions it holds, in the role table's order. */
  roles: { role: Role; permissions: Permission[] }[];
  /** Each permission with its scope and what it allows. */
  permissions: { name: Permission; scope: string; description: string }[];
  /** Role by permission: whether the role holds it. */
  matrix: Record<Role, Record<Permission, boolean>>;
}

/** The roles × permissions matrix of the default role table, every role and permission listed. */
export function permissionMatrix(): PermissionMatrix {
  return {
    roles: ROLES.map((role) => ({ role, permissions: [...ROLE_PERMISSIONS[role]] })),
    permissions: NAMES.map((name) => ({ name, ...PERMISSIONS[name] })),
    matrix: Object.fromEntries(
      ROLES.map((role) => [
        role,
        Object.fromEntries(NAMES.map((n) => [n, ROLE_PERMISSIONS[role].includes(n)])),
      ]),
    ) as PermissionMatrix['matrix'],
  };
}
