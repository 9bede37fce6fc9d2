/**
 * When the connection breaks while COMMIT is on its way, the client cannot tell whether the
 * database committed: the COMMIT may have been applied and only its answer lost. Answering "not
 * applied" then would be a lie the caller acts on (a push reported as failed, and yet in the chain).
 * So the transaction's id is read before COMMIT, and after such a failure the database is asked,
 * on a new connection, what became of it (`txid_status`), until it answers or a deadline passes.
 */
import { LatchkeyError } from '@latchkey/core/store';
import type { Pool } from 'pg';

/** How long to wait, by default, for the database to say what became of a commit. */
export const DEFAULT_COMMIT_CHECK_TIMEOUT_MS = 15_000;

/** Pause between two questions while the database is still away or has not yet noticed the loss. */
const PAUSE_MS = 200;

/**
 * Resolves true when transaction `xid` committed, false when it did not; throws 503
 * `service_unavailable` saying the change may have been applied when the database cannot tell
 * within `timeoutMs`.
 */
export async function wasCommitted(
  pool: Pool,
  xid: string,
  cause: unknown,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const { rows } = await pool.query<{ status: string | null }>(
        'SELECT txid_status($1::bigint) AS status',
        [xid],
      );
      const status = rows[0]?.status ?? null;
      if (status === 'committed') return true;
      if (status === 'aborted') return false;
      // 'in progress': the server has not yet seen the connection go. NULL: too old to know.
      if (status === null) break;
    } catch {
      // Still unreachable: ask again after the pause.
    }
    const left = deadline - Date.now();
    if (left <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(PAUSE_MS, left)));
  }
  throw new LatchkeyError(
    'service_unavailable',
    'The database did not confirm the change before the connection was lost, and could not be asked ' +
      'in time: it may have been applied. Read it back before sending it again.',
    { cause, retryAfterSeconds: 1 },
  );
}
