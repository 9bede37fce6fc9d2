/**
 * Who acts, on what, and when: the plain value the HTTP layer hands a domain service in place of its
 * request context, and the activity events a service makes of it (what `ctx.event` makes in a route).
 */
import { actorOf, type Principal } from '../auth/permissions.js';
import type { ActivityDraft, Environment, Organization, Project } from '../model/model.js';
import type { IdGenerator } from '../runtime/ids.js';
import { type EventData, type EventType, eventDraft } from './event-types/index.js';

/** The caller of a service: its principal, the scope the request names, the request's time. */
export interface Acting {
  principal: Principal;
  organization: Organization;
  /** The project the request names, if any. */
  project?: Project | undefined;
  /** The environment the request names, if any. */
  environment?: Environment | undefined;
  /** ISO time of the request, taken once: every event and timestamp of the action carries it. */
  at: string;
}

/** The caller's activity event: its scope, acted by its principal, at its time. */
export function actingEvent<T extends EventType>(
  ids: IdGenerator,
  acting: Acting,
  type: T,
  data: EventData<T>,
  extra?: Partial<ActivityDraft>,
): ActivityDraft {
  return eventDraft({
    id: ids('evt'),
    occurred_at: acting.at,
    organization: acting.organization.slug,
    project: acting.project?.slug,
    environment: acting.environment?.slug,
    actor: actorOf(acting.principal),
    ...extra,
    type,
    data,
  });
}
