import type { Member } from '../model/model.js';
import type { MemberRepository } from '../store/ports/members.js';
import { journaledDelete, journaledSet } from './journaled.js';
import { namedRecords } from './named-records.js';
import { clone, type Journal, type MemoryState } from './state.js';

const copyMember = (m: Member): Member => ({
  ...m,
  grants: m.grants.map((g) => ({ project: g.project, environments: [...g.environments] })),
});

function ownerCount(state: MemoryState, organizationId: string): number {
  let owners = 0;
  for (const member of state.members.values()) {
    if (member.organization_id === organizationId && member.role === 'owner') owners++;
  }
  return owners;
}

/** Members in memory, unique by user in their organization. */
export function memoryMembers(state: MemoryState, journal: Journal): MemberRepository {
  const named = { parent: (m: Member) => m.organization_id, name: (m: Member) => m.user };
  return {
    ...namedRecords(state.members, journal, named, copyMember),
    async update(organizationId, user, patch) {
      const key = `${organizationId}/${user}`;
      const stored = state.members.get(key);
      if (!stored) return { ok: false, reason: 'not_found' };
      const role = patch.role ?? stored.role;
      if (stored.role === 'owner' && role !== 'owner' && ownerCount(state, organizationId) <= 1) {
        return { ok: false, reason: 'last_owner' };
      }
      const before = copyMember(stored);
      const member: Member = { ...before, role, grants: patch.grants ?? before.grants };
      journaledSet(state.members, key, clone(member), journal);
      return { ok: true, before, member: copyMember(member) };
    },
    async remove(organizationId, user) {
      const key = `${organizationId}/${user}`;
      const stored = state.members.get(key);
      if (!stored) return { ok: false, reason: 'not_found' };
      if (stored.role === 'owner' && ownerCount(state, organizationId) <= 1) {
        return { ok: false, reason: 'last_owner' };
      }
      journaledDelete(state.members, key, journal);
      return { ok: true, before: copyMember(stored), member: copyMember(stored) };
    },
  };
}
