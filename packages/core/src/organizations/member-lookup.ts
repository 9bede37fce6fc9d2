/** The member a request names, or a 404: what every change of a member starts from. */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Member } from '../model/model.js';
import type { LatchkeyStore } from '../store/types.js';

/** Member `user` of the organization, or 404 `not_found`. */
export async function findMember(
  store: LatchkeyStore,
  organizationId: string,
  user: string,
): Promise<Member> {
  const member = await store.members.get(organizationId, user);
  if (!member) throw new LatchkeyError('not_found', 'The member was not found.');
  return member;
}
