import type { Member } from '../../model.js';
import type { MemberRepository } from '../ports/members.js';
import { clone, insertUnique, type Journal, listSorted, type MemoryState } from './state.js';

const copyMember = (m: Member): Member => ({
  ...m,
  grants: m.grants.map((g) => ({ project: g.project, environments: [...g.environments] })),
});

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
