/**
 * The bulk of an organization's rows deleted a chunk per statement, before the one transaction of
 * `clearOrganization` deletes the rest: for a restore in steps on PGlite, where one statement over
 * a large organization's history (150,000 versions) would hold every other caller for half a
 * second. The organization answers 503 meanwhile, and a restart finds the restore unfinished and
 * empties it, so rows gone part way are never seen.
 */
import { setImmediate } from 'node:timers/promises';
import type { Runner } from '../../runner.js';
import type { Tables } from '../../schema-name.js';

/**
 * Rows per statement: a few milliseconds of PGlite's time (2,000 versions took 16-22 ms, on a
 * machine where other organizations' requests then waited as long).
 */
const CHUNK = 500;

/** Deletes the organization's versions, keys, events, pending events and tree nodes, a chunk at a time. */
export async function deleteBulkInChunks(db: Runner, t: Tables, organizationId: string): Promise<void> {
  const environments = `SELECT e.id FROM ${t.environments} e JOIN ${t.projects} p ON p.id = e.project_id
    WHERE p.organization_id = $1`;
  const targets = [
    [t.secretVersions, `environment_id IN (${environments})`],
    [t.secrets, `environment_id IN (${environments})`],
    [t.events, 'organization_id = $1'],
    [t.pendingEvents, 'organization_id = $1'],
    [t.treeNodes, 'organization_id = $1'],
  ] as const;
  for (const [table, where] of targets) {
    for (;;) {
      const { rowCount } = await db.query(
        `DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${where} LIMIT ${CHUNK})`,
        [organizationId],
      );
      if (rowCount < CHUNK) break;
      // PGlite answers without I/O: without a turn, the chunks would run as one long task.
      await setImmediate();
    }
  }
}
