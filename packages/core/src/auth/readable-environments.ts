/** Which environments of a project a member reads the history of. */
import { isOrganizationWide, type Principal } from './permissions.js';

/**
 * The environments of `project` whose events `principal` may read in the project's history:
 * `undefined` for every one of them (an organization-wide role, or a grant of `*`), otherwise the
 * slugs the grant names, and none without a grant (the project's own events stay readable).
 */
export function readableEnvironments(
  principal: Pick<Principal, 'role' | 'grants'>,
  project: string,
): string[] | undefined {
  if (isOrganizationWide(principal.role)) return undefined;
  const grant = principal.grants.find((g) => g.project === project);
  if (grant?.environments.includes('*')) return undefined;
  return grant?.environments ?? [];
}
