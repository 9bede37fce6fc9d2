/** Port: environments of a project, unique by (project, slug). */
import type { Environment } from '../../model/model.js';
import type { CreateResult } from './common.js';

export interface EnvironmentRepository {
  /** Inserts unless the slug is taken in the project. Atomic on (project, slug). */
  create(environment: Environment): Promise<CreateResult>;
  get(projectId: string, slug: string): Promise<Environment | null>;
  list(projectId: string): Promise<Environment[]>;
  /** Changes settings; returns the updated record or null when it does not exist. */
  update(
    id: string,
    patch: Required<Pick<Environment, 'require_strict_conflict_mode' | 'approval_policy'>>,
  ): Promise<Environment | null>;
}
