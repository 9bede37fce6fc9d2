import type { Member } from '../../model.js';
import type { MemberRepository } from '../ports/members.js';
import { clone, type Journal, type MemoryState } from './state.js';

const copyMember = (m: Member): Member => ({
  ...m,
  grants: m.grants.map((g) => ({ project: g.project, environments: [...g.environments] })),
});

/** Members in memory. */
export function memoryMembers(state: MemoryState, journal: Journal): MemberRepository {
  return {
    async create(member) {
      const key = `${member.organization_id}/${member.user}`;
      if (state.members.has(key)) return 'exists';
      state.members.set(key, clone(member));
      journal?.push(() => state.members.delete(key));
      return 'created';
    },
    async get(organizationId, user) {
      const member = state.members.get(`${organizationId}/${user}`);
      return member ? copyMember(member) : null;
    },
    async list(organizationId) {
      return [...state.members.values()]
        .filter((m) => m.organization_id === organizationId)
        .sort((a, b) => a.user.localeCompare(b.user))
        .map(clone);
    },
  };
}
