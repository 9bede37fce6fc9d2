/** The schemas of a key's version history. */
import { z } from 'zod';
import { pageCursor, pageLimit, pageOf } from './list.js';
import { text } from './text.js';

/** Query of `GET …/secrets/{key}/versions`. */
export const SecretVersionsQuery = z.strictObject({
  limit: pageLimit(100).describe('default 20'),
  cursor: pageCursor(/^[A-Za-z0-9_-]{1,64}$/),
  include_values: text()
    .regex(/^(true|false)$/, 'true or false')
    .transform((value) => value === 'true')
    .optional()
    .describe('true adds each kept value (needs secrets:read; recorded as secret_versions_read)'),
});

/** One version of a key, as its history shows it. */
export const SecretVersionSchema = z.strictObject({
  version: z.int(),
  deleted: z.boolean().describe('true for a tombstone (a delete)'),
  occurred_at: z.string(),
  actor: z
    .strictObject({ type: z.enum(['user', 'system', 'workload']), id: z.string() })
    .nullable()
    .describe('null for a version back-filled from a head written before history was kept'),
  device_id: z.string().nullable(),
  event_id: z.string().nullable().describe('the event that records the write; null as actor'),
  value: z
    .string()
    .optional()
    .describe('with include_values=true, only where the value is still kept (never for a tombstone)'),
});

/** A page of a key's versions, newest first. */
export const SecretVersionsResponse = pageOf('versions', SecretVersionSchema);
