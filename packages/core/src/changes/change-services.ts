/** What the change-request rules need from the core, and how their events are made. */
import { type EventData, type EventType, eventDraft } from '../activity/event-types/index.js';
import { actorOf, type Principal } from '../auth/permissions.js';
import type { Limits } from '../model/limits.js';
import type { ActivityDraft, Environment, Organization, Project } from '../model/model.js';
import type { PushServices } from '../secrets/push-service.js';

/** A push's services, and the bound on open requests. */
export interface ChangeServices extends PushServices {
  limits: Pick<Limits, 'openChangeRequestsPerEnvironment'>;
}

/** Where and by whom an action on a change request is taken. */
export interface ChangeScope {
  principal: Principal;
  organization: Organization;
  project: Project;
  environment: Environment;
  /** ISO time of the request. */
  at: string;
}

/** The first fields of an event of the scope's environment: a new id, the scope's time, address and actor. */
export const eventHead = (services: Pick<ChangeServices, 'ids'>, scope: ChangeScope) => ({
  id: services.ids('evt'),
  occurred_at: scope.at,
  organization: scope.organization.slug,
  project: scope.project.slug,
  environment: scope.environment.slug,
  actor: actorOf(scope.principal),
});

/** An event of the scope's environment, acted by its principal at its time. */
export function changeEvent<T extends EventType>(
  services: Pick<ChangeServices, 'ids'>,
  scope: ChangeScope,
  type: T,
  data: EventData<T>,
  device_id?: string,
): ActivityDraft {
  return eventDraft({
    ...eventHead(services, scope),
    ...(device_id !== undefined && { device_id }),
    type,
    data,
  });
}

/** The scope's address, as signatures name it. */
export const addressOf = (scope: ChangeScope) => ({
  organization: scope.organization.slug,
  project: scope.project.slug,
  environment: scope.environment.slug,
});
