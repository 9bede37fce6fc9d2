import type { Environment } from '../model/model.js';
import type { EnvironmentRepository } from '../store/ports/environments.js';
import { journaledAssign } from './journaled.js';
import { namedRecords } from './named-records.js';
import { clone, type Journal, type MemoryState } from './state.js';

/** A copy of the record; its policy (the one nested field) copied too, so no caller shares it. */
const copy = (environment: Environment): Environment =>
  environment.approval_policy ? clone(environment) : { ...environment };

/** Environments in memory, unique by slug in their project. */
export function memoryEnvironments(state: MemoryState, journal: Journal): EnvironmentRepository {
  return {
    ...namedRecords(state.environments, journal, { parent: (e) => e.project_id, name: (e) => e.slug }, copy),
    async update(id, patch) {
      for (const environment of state.environments.values()) {
        if (environment.id !== id) continue;
        const { require_strict_conflict_mode, approval_policy } = patch;
        journaledAssign(
          environment,
          { require_strict_conflict_mode, approval_policy: approval_policy && clone(approval_policy) },
          journal,
        );
        return copy(environment);
      }
      return null;
    },
  };
}
