import type { ProjectRepository } from '../ports/projects.js';
import { copy, insertUnique, type Journal, listSorted, type MemoryState } from './state.js';

/** Projects in memory. */
export function memoryProjects(state: MemoryState, journal: Journal): ProjectRepository {
  return {
    async create(project) {
      return insertUnique(
        state.projects,
        `${project.organization_id}/${project.slug}`,
        copy(project),
        journal,
      );
    },
    async get(organizationId, slug) {
      const project = state.projects.get(`${organizationId}/${slug}`);
      return project ? copy(project) : null;
    },
    async list(organizationId) {
      return listSorted(
        state.projects,
        (p) => p.organization_id === organizationId,
        (p) => p.slug,
        copy,
      );
    },
  };
}
