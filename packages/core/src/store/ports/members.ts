/** Port: members of an organization, unique by (organization, user). */

import type { Member } from '../../model/model.js';
import type { Grant, Role } from '../../model/roles.js';
import type { CreateResult } from './common.js';

export interface MemberRepository {
  /** Inserts unless the user is already a member. Atomic on (organization, user). */
  create(member: Member): Promise<CreateResult>;
  get(organizationId: string, user: string): Promise<Member | null>;
  list(organizationId: string): Promise<Member[]>;
  /**
   * Changes a member's role and/or grants. Refuses, writing nothing, to turn the organization's last
   * owner into anything else: atomic against concurrent changes and removals of other owners (on
   * SQL the organization's owner rows are locked first), so two owners demoting each other at once
   * can never leave the organization without one.
   */
  update(organizationId: string, user: string, patch: MemberPatch): Promise<MemberChange>;
  /** Removes a member, under the same last-owner rule as {@link MemberRepository.update}. */
  remove(organizationId: string, user: string): Promise<MemberChange>;
}

/** What {@link MemberRepository.update} may change. */
export interface MemberPatch {
  role?: Role | undefined;
  grants?: Grant[] | undefined;
}

/** The member before and after the change (after a removal, `member` is the removed one), or why nothing changed. */
export type MemberChange =
  | { ok: true; before: Member; member: Member }
  | { ok: false; reason: 'not_found' | 'last_owner' };
