/** The `GET` of a whole list: every record a read returns, each through its view, under one key. */
import type { z } from 'zod';
import type { RouteContext, RouteDefinition } from '../http/router.js';
import { listOf } from '../schemas/api.js';
import { answers } from './docs.js';

/** What a list route (a `GET`) adds to its name and summary: the documented answer and the handler. */
export type Listing = Pick<RouteDefinition, 'responses' | 'handler'>;

/** The answer's description: the key as a title, `audit_webhooks` → `Audit webhooks`. */
const title = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1).replaceAll('_', ' ');

/**
 * A list route's answer and handler: `{ [key]: [view(record, ctx), …] }` of the records `read`
 * returns, documented as `listOf(key, item)`.
 */
export function listing<T>(
  key: string,
  item: z.ZodType,
  view: (record: T, ctx: RouteContext) => unknown,
  read: (ctx: RouteContext) => Promise<readonly T[]>,
): Listing {
  return {
    responses: answers(200, title(key), listOf(key, item)),
    async handler(ctx) {
      const records = await read(ctx);
      return { status: 200, body: { [key]: await Promise.all(records.map((record) => view(record, ctx))) } };
    },
  };
}
