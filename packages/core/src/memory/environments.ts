import type { EnvironmentRepository } from '../store/ports/environments.js';
import { journaledAssign } from './journaled.js';
import { namedRecords } from './named-records.js';
import { copy, type Journal, type MemoryState } from './state.js';

/** Environments in memory, unique by slug in their project. */
export function memoryEnvironments(state: MemoryState, journal: Journal): EnvironmentRepository {
  return {
    ...namedRecords(state.environments, journal, { parent: (e) => e.project_id, name: (e) => e.slug }, copy),
    async update(id, patch) {
      for (const environment of state.environments.values()) {
        if (environment.id !== id) continue;
        const { require_strict_conflict_mode } = patch;
        journaledAssign(environment, { require_strict_conflict_mode }, journal);
        return copy(environment);
      }
      return null;
    },
  };
}
