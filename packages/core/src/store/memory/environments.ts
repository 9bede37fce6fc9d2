import type { EnvironmentRepository } from '../ports/environments.js';
import { copy, insertUnique, type Journal, listSorted, type MemoryState } from './state.js';

/** Environments in memory. */
export function memoryEnvironments(state: MemoryState, journal: Journal): EnvironmentRepository {
  return {
    async create(environment) {
      const key = `${environment.project_id}/${environment.slug}`;
      return insertUnique(state.environments, key, copy(environment), journal);
    },
    async get(projectId, slug) {
      const environment = state.environments.get(`${projectId}/${slug}`);
      return environment ? copy(environment) : null;
    },
    async list(projectId) {
      return listSorted(
        state.environments,
        (e) => e.project_id === projectId,
        (e) => e.slug,
        copy,
      );
    },
    async update(id, patch) {
      for (const environment of state.environments.values()) {
        if (environment.id === id) {
          const before = environment.require_strict_conflict_mode;
          environment.require_strict_conflict_mode = patch.require_strict_conflict_mode;
          journal?.push(() => {
            environment.require_strict_conflict_mode = before;
          });
          return copy(environment);
        }
      }
      return null;
    },
  };
}
