/** A staged restore's parts: stored under the session's running total of their sizes, read back in order. */
import { setImmediate } from 'node:timers/promises';
import type { RestoreRepository } from '@latchkey/core/store';
import type { Runner } from '../../runner.js';
import type { Tables } from '../../schema-name.js';

/**
 * Parts per read while streaming them back: one, each up to a body's worth of backup lines, so
 * that no read holds PGlite (which runs in the process's own thread) longer than one part takes.
 */
const PARTS_PER_READ = 1;

/** The parts of staged restores on SQL. */
export function sqlRestoreParts(
  db: Runner,
  t: Tables,
): Pick<RestoreRepository, 'putPart' | 'partStats' | 'parts' | 'dropParts'> {
  return {
    async putPart(sessionId, index, data, bytes, maxBytes) {
      return db.atomic(async (q) => {
        // The session's row, locked, holds the running total: parts sent at once take turns.
        const session = await q.query<{ bytes: string }>(
          `SELECT bytes FROM ${t.restoreSessions} WHERE id = $1 FOR UPDATE`,
          [sessionId],
        );
        if (!session.rows[0]) return null;
        const before = await q.query<{ bytes: string }>(
          `SELECT bytes FROM ${t.restoreParts} WHERE session_id = $1 AND part = $2`,
          [sessionId, index],
        );
        const total = Number(session.rows[0].bytes) - Number(before.rows[0]?.bytes ?? 0) + bytes;
        if (total > maxBytes) return total;
        await q.query(
          `INSERT INTO ${t.restoreParts} (session_id, part, data, bytes) VALUES ($1, $2, $3, $4)
           ON CONFLICT (session_id, part) DO UPDATE SET data = EXCLUDED.data, bytes = EXCLUDED.bytes`,
          [sessionId, index, data, bytes],
        );
        await q.query(`UPDATE ${t.restoreSessions} SET bytes = $2 WHERE id = $1`, [sessionId, total]);
        return total;
      });
    },
    async partStats(sessionId) {
      const { rows } = await db.query<{ count: number; max: number }>(
        `SELECT count(*)::int AS count, coalesce(max(part), -1)::int AS max
         FROM ${t.restoreParts} WHERE session_id = $1`,
        [sessionId],
      );
      return { count: Number(rows[0]!.count), maxIndex: Number(rows[0]!.max) };
    },
    async *parts(sessionId) {
      let after = -1;
      for (;;) {
        const { rows } = await db.query<{ part: number; data: string }>(
          `SELECT part, data FROM ${t.restoreParts} WHERE session_id = $1 AND part > $2
           ORDER BY part LIMIT ${PARTS_PER_READ}`,
          [sessionId, after],
        );
        for (const row of rows) yield row.data;
        if (rows.length < PARTS_PER_READ) return;
        after = Number(rows.at(-1)!.part);
      }
    },
    // One part per statement, a turn of the event loop between: on PGlite, deleting a large
    // restore's parts (15 MB of them) in the statement that drops its session held every other
    // caller for 50-75 ms.
    async dropParts(sessionId) {
      for (;;) {
        const { rowCount } = await db.query(
          `DELETE FROM ${t.restoreParts} WHERE session_id = $1
           AND part = (SELECT min(part) FROM ${t.restoreParts} WHERE session_id = $1)`,
          [sessionId],
        );
        if (rowCount === 0) return;
        await setImmediate();
      }
    },
  };
}
