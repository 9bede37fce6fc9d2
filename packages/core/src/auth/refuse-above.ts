/** The rank check of every action on another member (their tokens, devices, sessions, role). */

import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Role } from '../model/roles.js';
import { mayActOn, type Principal } from './permissions.js';

/**
 * Throws 403 `forbidden` when `principal`'s role ranks below `targetRole` (see {@link mayActOn});
 * `what` completes "Your role (…) cannot …".
 */
export function refuseAbove(principal: Pick<Principal, 'role'>, targetRole: Role, what: string): void {
  if (!mayActOn(principal, targetRole).ok) {
    throw new LatchkeyError('forbidden', `Your role (${principal.role}) cannot ${what}.`);
  }
}
