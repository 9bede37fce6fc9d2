/**
 * Who changes an organization's audit webhooks, and when: the plain value the HTTP layer hands the
 * webhook service in place of its request context, and the activity events it makes of it.
 */
import { type EventData, type EventType, eventDraft } from '../../activity/event-types/index.js';
import type { ActivityDraft, Organization } from '../../model/model.js';
import type { IdGenerator } from '../../runtime/ids.js';

/** The member acting on the organization's webhooks, at the request's time. */
export interface WebhookCaller {
  /** Its id keys the store; its slug names the organization in events. */
  organization: Pick<Organization, 'id' | 'slug'>;
  /** The acting member's user id. */
  user: string;
  /** ISO time of the request, taken once: every event and timestamp of the change carries it. */
  at: string;
}

/**
 * The activity event of a webhook change, acted by the caller on its organization (webhooks belong
 * to no project or environment), ready for the store to seal into the chain.
 */
export function webhookEvent<T extends EventType>(
  ids: IdGenerator,
  caller: WebhookCaller,
  type: T,
  data: EventData<T>,
): ActivityDraft {
  return eventDraft({
    id: ids('evt'),
    occurred_at: caller.at,
    organization: caller.organization.slug,
    actor: { type: 'user', id: caller.user },
    type,
    data,
  });
}
