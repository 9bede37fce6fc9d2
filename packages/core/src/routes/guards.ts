/** Checks shared by the routes that act on other members (tokens, devices, members). */

import { mayActOn } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { RouteContext } from '../http/router.js';
import type { Role } from '../model/roles.js';

/** Throws 403 `forbidden` when the caller's role ranks below `targetRole` (see {@link mayActOn}). */
export function refuseAbove(ctx: RouteContext, targetRole: Role, what: string): void {
  if (!mayActOn(ctx.principal, targetRole).ok) {
    throw new LatchkeyError('forbidden', `Your role (${ctx.principal.role}) cannot ${what}.`);
  }
}
