/** Empties an organization before a restore writes its backup in: its records, deliveries and activity chain. */
import type { SqlQueryable } from '../../driver.js';
import type { Tables } from '../../schema-name.js';
import { lockChainHead } from '../chain.js';

/**
 * Deletes everything the organization holds, inside the caller's transaction; the organization's
 * own row stays, and its chain restarts from nothing. The `jti`s it has exchanged stay too: an ID
 * token spent before the restore is spent after it (each is forgotten once its token expires).
 */
export async function clearOrganization(q: SqlQueryable, t: Tables, organizationId: string): Promise<void> {
  // The chain head stays locked until the restore commits: appends wait, then build on the restored chain.
  await lockChainHead(q, t, organizationId);
  // Each by an indexed column: webhook ids for the delivery tables, project ids for environments.
  const webhooks = `SELECT id FROM ${t.webhooks} WHERE organization_id = $1`;
  for (const table of [t.attempts, t.rollups, t.totals, t.deliveries]) {
    await q.query(`DELETE FROM ${table} WHERE webhook_id IN (${webhooks})`, [organizationId]);
  }
  const projects = `SELECT id FROM ${t.projects} WHERE organization_id = $1`;
  const environments = `SELECT id FROM ${t.environments} WHERE project_id IN (${projects})`;
  for (const table of [t.secretVersions, t.secrets]) {
    await q.query(`DELETE FROM ${table} WHERE environment_id IN (${environments})`, [organizationId]);
  }
  await q.query(`DELETE FROM ${t.environments} WHERE project_id IN (${projects})`, [organizationId]);
  for (const table of [
    t.webhooks,
    t.workloadIdentities,
    t.projects,
    t.members,
    t.devices,
    t.events,
    t.pendingEvents,
    t.treeNodes,
  ]) {
    await q.query(`DELETE FROM ${table} WHERE organization_id = $1`, [organizationId]);
  }
  await q.query(
    `UPDATE ${t.chains} SET seq = 0, hash = '', tree_size = 0, tree_frontier = ''::bytea WHERE organization_id = $1`,
    [organizationId],
  );
}
