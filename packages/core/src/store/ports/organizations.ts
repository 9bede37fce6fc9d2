/** Port: organizations, addressed by id and by unique slug. */
import type { Organization } from '../../model/model.js';
import type { CreateResult } from './common.js';

/** Who creates an organization through the API, and how many that user may create in all. */
export interface OrganizationCreator {
  user: string;
  max: number;
}

export interface OrganizationRepository {
  /**
   * Inserts unless the slug is taken (`exists`). With `creator`, records who created it and, in
   * the same atomic step, answers `limit` and writes nothing when that user already created `max`
   * organizations: two concurrent creations by one user cannot both pass the count.
   */
  create(org: Organization, creator?: OrganizationCreator): Promise<CreateResult | 'limit'>;
  getBySlug(slug: string): Promise<Organization | null>;
  getById(id: string): Promise<Organization | null>;
}
