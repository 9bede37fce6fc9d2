import type { Member } from '../../model.js';
import type { MemberRepository } from '../ports/members.js';
import { clone, insertUnique, type Journal, listSorted, type MemoryState } from './state.js';

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

/** Members in memory. */
export function memoryMembers(state: MemoryState, journal: Journal): MemberRepository {
  return {
    async create(member) {
      return insertUnique(state.members, `${member.organization_id}/${member.user}`, clone(member), journal);
    },
    async get(organizationId, user) {
      const member = state.members.get(`${organizationId}/${user}`);
      return member ? copyMember(member) : null;
    },
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
      state.members.set(key, clone(member));
      journal?.push(() => state.members.set(key, stored));
      return { ok: true, before, member: copyMember(member) };
    },
    async remove(organizationId, user) {
      const key = `${organizationId}/${user}`;
      const stored = state.members.get(key);
      if (!stored) return { ok: false, reason: 'not_found' };
      if (stored.role === 'owner' && ownerCount(state, organizationId) <= 1) {
        return { ok: false, reason: 'last_owner' };
      }
      state.members.delete(key);
      journal?.push(() => state.members.set(key, stored));
      return { ok: true, before: copyMember(stored), member: copyMember(stored) };
    },
    async list(organizationId) {
      return listSorted(
        state.members,
        (m) => m.organization_id === organizationId,
        (m) => m.user,
        clone,
      );
    },
  };
}
