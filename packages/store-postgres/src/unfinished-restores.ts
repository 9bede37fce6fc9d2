/**
 * Restores that a process began applying in steps and did not end (it stopped half way): found
 * when the store opens by the mark `claim` set on their sessions. Their organizations' content is
 * half written, so each is emptied, its restorer left its owner (as a restore that fails half way
 * leaves it), and the session dropped; the restorer begins again.
 */
import type { SqlDriver } from './driver.js';
import { clearOrganization } from './repositories/restores/clear-organization.js';
import type { Tables } from './schema-name.js';

/** Empties the organization of every restore left applying; each in a transaction of its own. */
export async function dropUnfinishedRestores(driver: SqlDriver, t: Tables): Promise<number> {
  const { rows } = await driver.query<{ id: string; organization_id: string; user_id: string }>(
    `SELECT id, organization_id, user_id FROM ${t.restoreSessions} WHERE applying`,
  );
  for (const session of rows) {
    await driver.transaction(async (q) => {
      await clearOrganization(q, t, session.organization_id);
      await q.query(
        `INSERT INTO ${t.members} (organization_id, user_id, role, grants, created_at)
         VALUES ($1, $2, 'owner', '[]'::jsonb, now())`,
        [session.organization_id, session.user_id],
      );
      await q.query(`DELETE FROM ${t.restoreSessions} WHERE id = $1`, [session.id]);
    });
  }
  return rows.length;
}
