/**
 * The maker of a request's activity event: the HTTP layer builds one per request (its organization,
 * project, environment and actor), and a domain function that records an event takes only this.
 */
import type { ActivityDraft } from '../model/model.js';
import type { EventData, EventType } from './event-types/index.js';

/** Makes an activity event of `type`, ready for the store to seal into the chain. */
export type MakeEvent = <T extends EventType>(
  type: T,
  data: EventData<T>,
  extra?: Partial<ActivityDraft>,
) => ActivityDraft;
