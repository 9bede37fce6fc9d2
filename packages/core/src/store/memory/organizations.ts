import type { OrganizationRepository } from '../ports/organizations.js';
import { copy, type Journal, type MemoryState } from './state.js';

/** Organizations in memory. */
export function memoryOrganizations(state: MemoryState, journal: Journal): OrganizationRepository {
  return {
    async create(org) {
      if (state.orgBySlug.has(org.slug)) return 'exists';
      const stored = copy(org);
      state.orgs.set(org.id, stored);
      state.orgBySlug.set(org.slug, stored);
      journal?.push(() => {
        state.orgs.delete(org.id);
        state.orgBySlug.delete(org.slug);
      });
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
