/** What the store's refusal of a member change means to the caller. */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { MemberChange } from '../store/types.js';

/** 409 `last_owner` for the organization's last owner, 404 `not_found` for a member gone meanwhile. */
export function memberChangeRefused(change: Extract<MemberChange, { ok: false }>): LatchkeyError {
  return change.reason === 'last_owner'
    ? new LatchkeyError(
        'last_owner',
        'This is the organization’s last owner: make another member owner first.',
      )
    : new LatchkeyError('not_found', 'The member was not found.');
}
