/** Turning zod failures into `error.details`, and the schema of each path parameter. */
import { z } from 'zod';
import { idSchema, SlugSchema, UserSchema } from './schemas.js';

/** The schema each named path parameter must satisfy; a failure is a 400, not a 404. */
export const paramSchemas: Record<string, z.ZodType> = {
  organization: SlugSchema,
  UserSchema,
  project: SlugSchema,
  environment: SlugSchema,
  user: UserSchema,
  device: idSchema('dev'),
  token: idSchema('tok'),
  auditWebhook: idSchema('awh'),
  restore: idSchema('rst'),
  part: z.string().regex(/^(0|[1-9][0-9]{0,5})$/),
};

/** `{path, message}` entries for a zod error; paths are dotted and prefixed with `body.` or `query.`. */
export function zodDetails(error: z.ZodError, where: string): { path: string; message: string }[] {
  return error.issues.slice(0, 50).map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}
