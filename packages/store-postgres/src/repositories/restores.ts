import type { RestoreRepository, RestoreSession } from '@latchkey/core/store';
import { flag, jsonb, recordColumns, text, timestamp } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { sqlRestoreWrites } from './restores/bulk-writes.js';
import { deleteBulkInChunks } from './restores/clear-in-steps.js';
import { clearOrganization } from './restores/clear-organization.js';
import { sqlRestoreParts } from './restores/parts.js';

const SESSION = recordColumns<RestoreSession>({
  id: text(),
  organization_id: text(),
  user: text('user_id'),
  manifest: jsonb(),
  force: flag(),
  created_at: timestamp(),
  expires_at: timestamp(),
});

/** Staged restores and the bulk writes that apply them, on SQL. */
export function sqlRestores(db: Runner, t: Tables): RestoreRepository {
  return {
    async begin(session, now) {
      return db.atomic(async (q) => {
        // A restore being applied is left to end, however long it has been open.
        await q.query(`DELETE FROM ${t.restoreSessions} WHERE expires_at <= $1 AND NOT applying`, [now]);
        // One per organization (a unique index): of two begins at once, the second waits for the
        // first to commit, inserts nothing, and reads the first's session.
        const sessions = recordTable(q, t.restoreSessions, SESSION);
        if ((await sessions.insertNew(session, 'organization_id')) === 'created') return null;
        return sessions.find('organization_id = $1', [session.organization_id]);
      });
    },
    // FOR UPDATE: inside a unit of work, a second commit of the same session waits, then finds it gone.
    get: (organizationId, id, now) =>
      recordTable(db, t.restoreSessions, SESSION).find(
        'id = $1 AND organization_id = $2 AND expires_at > $3 FOR UPDATE',
        [id, organizationId, now],
      ),
    // One UPDATE: of two claims at once, the second waits for the first's row and then matches nothing.
    claim: (organizationId, id, now) =>
      recordTable(db, t.restoreSessions, SESSION).update(
        'applying = true',
        'id = $1 AND organization_id = $2 AND expires_at > $3 AND NOT applying',
        [id, organizationId, now],
      ),
    async end(sessionId) {
      await db.query(`DELETE FROM ${t.restoreSessions} WHERE id = $1`, [sessionId]);
    },
    async clearOrganization(organizationId, options) {
      if (options?.inSteps) await deleteBulkInChunks(db, t, organizationId);
      await db.atomic((q) => clearOrganization(q, t, organizationId));
    },
    ...sqlRestoreParts(db, t),
    ...sqlRestoreWrites(db, t),
  };
}
