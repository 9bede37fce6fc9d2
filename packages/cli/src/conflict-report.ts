/**
 * What the CLI prints when the server refuses a write for its versions: the keys a 409
 * `version_conflict` names with the server's version and the expected one, or the keys a 428
 * `if_version_required` names. On stderr, so stdout stays clean for `--json`. A push and the apply
 * of a change request answer the same body, so both explain it here.
 */
import type { ApiError } from './http-client.js';
import type { Output } from './output.js';

/** One key a `version_conflict` names. */
export interface Conflict {
  key: string;
  server_version: number;
  client_if_version: number;
}

/** The keys and versions a conflict names, as a table on stderr, with `advice` below it. */
export function explainConflict(
  ctx: { out: Output },
  error: ApiError,
  advice = 'Pull again and re-apply your changes, push --rebase to choose key by key, or push --force-overwrite if your role allows it.',
): void {
  const conflicts = error.body['conflicts'] as Conflict[] | undefined;
  const keys = error.body['keys'] as string[] | undefined;
  if (conflicts?.length) {
    ctx.out.warn('These keys changed on the server since your pull:');
    ctx.out.warnTable(
      ['key', 'server version', 'your version'],
      conflicts.map((c) => [c.key, String(c.server_version), String(c.client_if_version)]),
    );
    ctx.out.warn(advice);
  } else if (keys?.length) {
    ctx.out.warn(
      `Strict mode needs the version each change is based on; none is known for: ${keys.join(', ')}. Pull first.`,
    );
  }
}
