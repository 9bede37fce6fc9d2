/** Turning zod failures into `error.details`, and the schema of each path parameter. */
import type { z } from 'zod';
import { idSchema, SlugSchema, UserSchema } from '../schemas/api.js';
import { text } from '../schemas/text.js';

/** The schema each named path parameter must satisfy; a failure is a 400, not a 404. */
export const paramSchemas: Record<string, z.ZodType> = {
  organization: SlugSchema,
  project: SlugSchema,
  environment: SlugSchema,
  user: UserSchema,
  device: idSchema('dev'),
  token: idSchema('tok'),
  auditWebhook: idSchema('awh'),
  restore: idSchema('rst'),
  changeRequest: idSchema('chr'),
  part: text().regex(/^(0|[1-9][0-9]{0,5})$/),
};

/** `{path, message}` entries for a zod error; paths are dotted and prefixed with `body.`, `query.` or `path.<name>`. */
export function zodDetails(error: z.ZodError, where: string): { path: string; message: string }[] {
  return error.issues
    .flatMap(unionBranch)
    .slice(0, 50)
    .map((issue) => ({
      path: [where, ...issue.path.map(String)].join('.'),
      message: issue.message,
    }));
}

type Issue = z.core.$ZodIssue;

/**
 * A failed union says only "Invalid input". When exactly one branch failed for a reason other than
 * the value's type or literal (`"*"` or a slug: the slug branch), its issues say what is wrong.
 */
function unionBranch(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const telling = issue.errors.filter((branch) =>
    branch.some((inner) => inner.code !== 'invalid_type' && inner.code !== 'invalid_value'),
  );
  if (telling.length !== 1) return [issue];
  return telling[0]!.flatMap((inner) => unionBranch({ ...inner, path: [...issue.path, ...inner.path] }));
}
