/** Which grants a member holds once added with a role or moved to another. */

import type { Grant, Role } from '../model/roles.js';
import { isOrganizationWide } from './permissions.js';

/**
 * The grants a member holds with `role`. An organization-wide role holds none (it reaches every
 * project), so grants asked for with it are dropped unchecked. Otherwise the grants asked for, once
 * `vet` accepts them; with none asked for, the member keeps the grants held before (`before`), and a
 * member coming from an organization-wide role, or a new one, holds none.
 */
export async function grantsWithRole(
  role: Role,
  asked: Grant[] | undefined,
  before: { role: Role; grants: Grant[] } | undefined,
  vet: (asked: Grant[]) => Promise<Grant[]>,
): Promise<Grant[]> {
  if (isOrganizationWide(role)) return [];
  if (asked !== undefined) return vet(asked);
  if (before === undefined || isOrganizationWide(before.role)) return [];
  return before.grants;
}
