/** Checks shared by the routes that act on other members (tokens, devices, members). */

import { refuseAbove as refuseAboveRole } from '../auth/refuse-above.js';
import type { RouteContext } from '../http/router.js';
import type { Role } from '../model/roles.js';

/** Throws 403 `forbidden` when the caller's role ranks below `targetRole` (see `auth/refuse-above.ts`). */
export function refuseAbove(ctx: RouteContext, targetRole: Role, what: string): void {
  refuseAboveRole(ctx.principal, targetRole, what);
}
