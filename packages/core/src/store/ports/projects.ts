/** Port: projects of an organization, unique by (organization, slug). */
import type { Project } from '../../model/model.js';
import type { CreateResult } from './common.js';

export interface ProjectRepository {
  /** Inserts unless the slug is taken in the organization. Atomic on (organization, slug). */
  create(project: Project): Promise<CreateResult>;
  get(organizationId: string, slug: string): Promise<Project | null>;
  list(organizationId: string): Promise<Project[]>;
}
