/** The pieces event data schemas share: how a catalog entry is written, and fields many events carry. */
import { z } from 'zod';
import { ROLES } from '../../model/roles.js';

/** One entry of the event-type catalog: what the event records, and the schema of its `data`. */
export interface EventTypeEntry {
  /** One line: what happened when an event of this type is recorded. */
  description: string;
  /** The schema `data` is validated against when the event is made. */
  data: z.ZodType<Record<string, unknown>>;
}

/** Declares a catalog entry, keeping its data schema's own type. */
export const entry = <S extends z.ZodType<Record<string, unknown>>>(description: string, data: S) => ({
  description,
  data,
});

/** A slug of an organization, project or environment. */
export const Slug = z.string();
/** An RFC 3339 UTC time. */
export const Time = z.string();
/** A count of records. */
export const Count = z.int().min(0);

/** The role names of the role table. */
export const Role = z.enum(ROLES);

/** A grant: a project and the environments in it (`*`: all). */
export const Grant = z.strictObject({ project: Slug, environments: z.array(z.string()) });

/** How the push was checked for conflicts. */
export const ConflictMode = z.enum(['strict', 'lenient']);

/** What names a webhook in events: its id, name and host (never the full URL, which may carry a token). */
export const WebhookFields = {
  webhook_id: z.string(),
  name: z.string(),
  host: z.string().describe('the host (and port) of the URL; never the full URL'),
};

/** The webhook's event-type filter: names and prefixes ending in `*`; empty means every event. */
export const EventTypesFilter = z.array(z.string()).describe('empty: every event');
