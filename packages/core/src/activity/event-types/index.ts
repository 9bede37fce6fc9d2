/**
 * The catalog of activity event types: every type the core records, a one-line description and the
 * schema of its `data`. `EventType` is derived from it, so an event of a type not listed here does
 * not compile, and `eventDraft` validates `data` when the event is made, so the catalog (and the
 * JSON Schemas `GET /event-types` serves from it) cannot drift from what is recorded.
 */
import { z } from 'zod';
import type { ActivityDraft } from '../../model/model.js';
import { changeEventTypes } from './changes.js';
import { evidenceEventTypes } from './evidence.js';
import { organizationEventTypes } from './organization.js';
import { secretEventTypes } from './secrets.js';
import type { EventTypeEntry } from './shared.js';
import { webhookEventTypes } from './webhooks.js';

export type { EventTypeEntry } from './shared.js';

/** Every event type, grouped by resource (the dashboard's checklist follows these groups). */
export const EVENT_TYPE_GROUPS = {
  organization: organizationEventTypes,
  secrets: secretEventTypes,
  changes: changeEventTypes,
  audit_webhooks: webhookEventTypes,
  evidence: evidenceEventTypes,
} as const;

/** The catalog: type name to its entry. */
export const EVENT_TYPES = {
  ...organizationEventTypes,
  ...secretEventTypes,
  ...changeEventTypes,
  ...webhookEventTypes,
  ...evidenceEventTypes,
} as const;

/** The name of an activity event type the core records. */
export type EventType = keyof typeof EVENT_TYPES;

/** The `data` an event of type `T` carries. */
export type EventData<T extends EventType> = z.input<(typeof EVENT_TYPES)[T]['data']>;

/** Every event type name, in catalog order. */
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

/** Whether `name` is a catalogued event type. */
export function isEventType(name: string): name is EventType {
  return Object.hasOwn(EVENT_TYPES, name);
}

/** The group (resource) an event type belongs to. */
function eventTypeGroup(type: EventType): keyof typeof EVENT_TYPE_GROUPS {
  for (const [group, types] of Object.entries(EVENT_TYPE_GROUPS))
    if (Object.hasOwn(types, type)) return group as keyof typeof EVENT_TYPE_GROUPS;
  throw new Error(`event type ${type} is in no group`);
}

/**
 * Checks `draft.data` against its type's schema and returns the draft. A mismatch is a bug of the
 * caller, never of the request: it throws, and the change it records is undone with it.
 */
export function eventDraft<T extends EventType>(
  draft: Omit<ActivityDraft, 'type' | 'data'> & { type: T; data: EventData<T> },
): ActivityDraft {
  const entry: EventTypeEntry = EVENT_TYPES[draft.type];
  const checked = entry.data.safeParse(draft.data);
  if (!checked.success) {
    throw new Error(`event ${draft.type} does not match its catalog schema: ${checked.error.message}`);
  }
  return draft as unknown as ActivityDraft;
}

/** One entry of `GET /event-types`. */
export interface EventTypeDescription {
  type: EventType;
  group: keyof typeof EVENT_TYPE_GROUPS;
  description: string;
  data_schema: Record<string, unknown>;
}

let described: EventTypeDescription[] | undefined;

/** The catalog as `GET /event-types` serves it, each `data` schema as JSON Schema (2020-12). */
export function describeEventTypes(): EventTypeDescription[] {
  described ??= EVENT_TYPE_NAMES.map((type) => ({
    type,
    group: eventTypeGroup(type),
    description: EVENT_TYPES[type].description,
    data_schema: z.toJSONSchema(EVENT_TYPES[type].data, { target: 'draft-2020-12', io: 'input' }) as Record<
      string,
      unknown
    >,
  }));
  return described;
}
