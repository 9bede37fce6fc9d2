/** Port: members of an organization, unique by (organization, user). */
import type { Member } from '../../model.js';
import type { CreateResult } from './common.js';

export interface MemberRepository {
  /** Inserts unless the user is already a member. Atomic on (organization, user). */
  create(member: Member): Promise<CreateResult>;
  get(organizationId: string, user: string): Promise<Member | null>;
  list(organizationId: string): Promise<Member[]>;
}
