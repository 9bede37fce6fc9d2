import type { OrganizationRepository } from '../store/ports/organizations.js';
import { journaledSet } from './journaled.js';
import { copy, type Journal, type MemoryState } from './state.js';

/** Organizations in memory, by id and by their unique slug. */
export function memoryOrganizations(state: MemoryState, journal: Journal): OrganizationRepository {
  return {
    async create(org, creator) {
      if (state.orgBySlug.has(org.slug)) return 'exists';
      if (creator) {
        const made = [...state.orgCreators.values()].filter((user) => user === creator.user).length;
        if (made >= creator.max) return 'limit';
        journaledSet(state.orgCreators, org.id, creator.user, journal);
      }
      const stored = copy(org);
      journaledSet(state.orgs, org.id, stored, journal);
      journaledSet(state.orgBySlug, org.slug, stored, journal);
      return 'created';
    },
    async getBySlug(slug) {
      const org = state.orgBySlug.get(slug);
      return org ? copy(org) : null;
    },
    async getById(id) {
      const org = state.orgs.get(id);
      return org ? copy(org) : null;
    },
  };
}
