import type { ProjectRepository } from '../ports/projects.js';
import { copy, type Journal, type MemoryState } from './state.js';

/** Projects in memory. */
export function memoryProjects(state: MemoryState, journal: Journal): ProjectRepository {
  return {
    async create(project) {
      const key = `${project.organization_id}/${project.slug}`;
      if (state.projects.has(key)) return 'exists';
      state.projects.set(key, copy(project));
      journal?.push(() => state.projects.delete(key));
      return 'created';
    },
    async get(organizationId, slug) {
      const project = state.projects.get(`${organizationId}/${slug}`);
      return project ? copy(project) : null;
    },
    async list(organizationId) {
      return [...state.projects.values()]
        .filter((p) => p.organization_id === organizationId)
        .sort((a, b) => a.slug.localeCompare(b.slug))
        .map(copy);
    },
  };
}
