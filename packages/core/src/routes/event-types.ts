/**
 * `GET /event-types`: the catalog of activity event types, each with a one-line description and the
 * JSON Schema (2020-12) of its `data`, generated from the schemas every event is validated against
 * when it is made. Any valid credential may read it (a receiver's author, the dashboard's filter).
 */
import { describeEventTypes } from '../activity/event-types/index.js';
import { defineRoute } from '../http/router.js';
import { EventTypesResponse } from '../schemas/audit-webhooks.js';
import { answers } from './docs.js';

export const eventTypeRoutes = [
  defineRoute('GET', '/event-types', {
    operationId: 'listEventTypes',
    summary:
      'Every activity event type: its name, resource group, one-line description and the JSON Schema (2020-12) of its data. Audit webhook filters name these types (or prefixes of them ending in *).',
    tag: 'Activity',
    responses: answers(200, 'The event types', EventTypesResponse),
    async handler() {
      return { status: 200, body: { event_types: describeEventTypes() } };
    },
  }),
];
