/** Port: organizations, addressed by id and by unique slug. */
import type { Organization } from '../../model.js';
import type { CreateResult } from './common.js';

export interface OrganizationRepository {
  /** Inserts unless the slug is taken. Atomic on the slug. */
  create(org: Organization): Promise<CreateResult>;
  getBySlug(slug: string): Promise<Organization | null>;
  getById(id: string): Promise<Organization | null>;
}
