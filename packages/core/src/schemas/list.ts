/** The shapes of lists: a whole list `{ <items>: [...] }`, and a page of one walked with `limit` and `cursor`. */
import { z } from 'zod';
import { text } from './text.js';

/** A JSON object with one array property, e.g. `{ projects: [...] }`. */
export const listOf = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.strictObject({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> });

const NextCursor = z
  .string()
  .nullable()
  .describe('Pass as cursor for the next (older) page; null at the end');

/** A page of a list, newest first: `{ <items>: [...], next_cursor }`. */
export const pageOf = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.strictObject({ [key]: z.array(item), next_cursor: NextCursor } as { [P in K]: z.ZodArray<T> } & {
    next_cursor: typeof NextCursor;
  });

/** The `limit` query parameter of a page: an integer from 1 to `max`, as query text. */
export const pageLimit = (max: number) =>
  text()
    .regex(/^[0-9]{1,3}$/, `an integer from 1 to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(1).max(max))
    .optional();

/** The `cursor` query parameter of a page: a `next_cursor` an earlier page gave, of the form `pattern`. */
export const pageCursor = (pattern: RegExp) =>
  text().regex(pattern, 'a next_cursor of an earlier page').optional();
