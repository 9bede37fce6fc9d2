/**
 * The writes that apply a restore: which of the backup's ids are taken, then its secrets and its
 * events (with the chain head they end on), each set in one statement over arrays (`unnest`).
 */
import { extendTree, type RestoreRepository } from '@latchkey/core/store';
import type { Runner } from '../../runner.js';
import type { Tables } from '../../schema-name.js';
import { eventColumns } from '../event-columns.js';
import { insertVersions } from '../secret-versions.js';
import { TREE_COLUMNS, treeHeadSet, treeNodesStatement, treeOfRow, treeParams } from '../tree.js';

/** A restore's checks and bulk inserts on SQL. */
export function sqlRestoreWrites(
  db: Runner,
  t: Tables,
): Pick<RestoreRepository, 'takenIds' | 'insertSecrets' | 'insertSecretVersions' | 'insertEvents'> {
  const idTables = {
    project: t.projects,
    environment: t.environments,
    device: t.devices,
    audit_webhook: t.webhooks,
    workload_identity: t.workloadIdentities,
    change_request: t.changeRequests,
  };
  return {
    async takenIds(kind, ids) {
      if (ids.length === 0) return new Set();
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM ${idTables[kind]} WHERE id = ANY($1::text[])`,
        [ids],
      );
      return new Set(rows.map((r) => r.id));
    },
    async insertSecrets(secrets) {
      if (secrets.length === 0) return;
      await db.query(
        `INSERT INTO ${t.secrets} (environment_id, key, version, deleted, value, updated_at)
         SELECT e, k, v, val IS NULL, val, u
         FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::timestamptz[]) AS s(e, k, v, val, u)`,
        [
          secrets.map((s) => s.environment_id),
          secrets.map((s) => s.key),
          secrets.map((s) => s.version),
          secrets.map((s) => s.value),
          secrets.map((s) => s.updated_at),
        ],
      );
    },
    async insertSecretVersions(versions) {
      await insertVersions(
        db,
        t,
        versions.map((v) => v.environment_id),
        versions,
      );
    },
    async insertEvents(organizationId, events) {
      if (events.length === 0) return;
      const last = events.at(-1)!;
      // The tree as the chain head row holds it (locked by the restore's clearing), extended by the batch.
      const { rows } = await db.query<{ tree_size: unknown; tree_frontier: string }>(
        `SELECT ${TREE_COLUMNS} FROM ${t.chains} WHERE organization_id = $1`,
        [organizationId],
      );
      const tree = extendTree(treeOfRow(rows[0]), events);
      await db.query(
        `WITH ${treeNodesStatement(t, 11)}stored AS (
           INSERT INTO ${t.events} (organization_id, seq, id, type, project, environment, occurred_at, body)
           SELECT $1, s, i, ty, p, e, o, b
           FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[])
             AS u(s, i, ty, p, e, o, b)
         )
         INSERT INTO ${t.chains} (organization_id, seq, hash, tree_size, tree_frontier)
         VALUES ($1, $9::bigint, $10, CASE WHEN $14::text IS NULL THEN 0 ELSE $9::bigint END, COALESCE(decode($14::text, 'hex'), ''::bytea))
         ON CONFLICT (organization_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash,
           ${treeHeadSet(11, 'EXCLUDED.seq', t.chains)}`,
        [organizationId, ...eventColumns(events), last.seq, last.hash, ...treeParams(tree)],
      );
    },
  };
}
