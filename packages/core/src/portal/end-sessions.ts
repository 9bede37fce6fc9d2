/**
 * Ending portal sessions before they expire: one by its id, or every live one of a member ("expire
 * all"). Each ending and its `portal_session_revoked` event are written together; the tokens are
 * refused (401) from the next request on.
 */
import { eventDraft } from '../activity/event-types/index.js';
import { recordChange } from '../activity/record-change.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Organization } from '../model/model.js';
import type { PortalSession } from '../model/portal-session.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { LatchkeyStore } from '../store/types.js';

/** What ending sessions needs of the core (a part of its dependencies). */
export interface EndDeps {
  store: LatchkeyStore;
  ids: IdGenerator;
  now(): number;
}

/** Ends the live session `id` of `organization`, acted by `actor`; a 404 when there is none. */
export async function endPortalSession(
  deps: EndDeps,
  organization: Organization,
  id: string,
  actor: string,
): Promise<PortalSession> {
  const at = new Date(deps.now()).toISOString();
  return recordChange(
    deps.store,
    organization.id,
    async (tx) => {
      const revoked = await tx.portalSessions.revoke(organization.id, id, at);
      if (!revoked) throw new LatchkeyError('not_found', 'No live portal session has this id.');
      return revoked;
    },
    (revoked) => revokedEvent(deps, organization, actor, at, revoked.user, [revoked.id], false),
  );
}

/** Ends every live session of `user`, acted by `actor`; returns their ids (none: nothing recorded). */
export async function expireAllPortalSessions(
  deps: EndDeps,
  organization: Organization,
  user: string,
  actor: string,
): Promise<string[]> {
  const at = new Date(deps.now()).toISOString();
  return deps.store.transaction(async (tx) => {
    const ids = await tx.portalSessions.revokeAllOf(organization.id, user, at);
    if (ids.length > 0)
      await tx.activity.append(organization.id, revokedEvent(deps, organization, actor, at, user, ids, true));
    return ids;
  });
}

function revokedEvent(
  deps: EndDeps,
  organization: Organization,
  actor: string,
  at: string,
  user: string,
  sessionIds: string[],
  expireAll: boolean,
) {
  return eventDraft({
    id: deps.ids('evt'),
    occurred_at: at,
    organization: organization.slug,
    actor: { type: 'user', id: actor },
    type: 'portal_session_revoked',
    data: { user, session_ids: sessionIds, expire_all: expireAll },
  });
}
