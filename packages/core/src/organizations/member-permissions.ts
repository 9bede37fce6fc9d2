/** The permission matrix of an organization: the role table, and what each of its members reaches. */
import { type EffectiveGrant, effectiveGrants } from '../auth/effective-grants.js';
import { type PermissionMatrix, permissionMatrix } from '../auth/permission-matrix.js';
import type { Member } from '../model/model.js';
import type { LatchkeyStore } from '../store/types.js';

/** The role table's matrix with each member of the organization and their effective grants. */
export interface MemberPermissions extends PermissionMatrix {
  members: { member: Member; effective: EffectiveGrant[] }[];
}

/** Organization `organizationId`'s matrix: {@link permissionMatrix} and each member's effective grants. */
export async function memberPermissions(
  store: LatchkeyStore,
  organizationId: string,
): Promise<MemberPermissions> {
  const members = await store.members.list(organizationId);
  return {
    ...permissionMatrix(),
    members: members.map((member) => ({ member, effective: effectiveGrants(member.role, member.grants) })),
  };
}
