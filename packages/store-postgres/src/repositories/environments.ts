import type { Environment, EnvironmentRepository } from '@latchkey/core';
import { created, iso } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

/** Named, never `*`: a column added by a later migration must not change the result of a prepared statement. */
const COLUMNS = 'id, organization_id, project_id, slug, require_strict_conflict_mode, created_at';

export const toEnvironment = (r: Record<string, unknown>): Environment => ({
  id: r['id'] as string,
  organization_id: r['organization_id'] as string,
  project_id: r['project_id'] as string,
  slug: r['slug'] as string,
  require_strict_conflict_mode: r['require_strict_conflict_mode'] as boolean,
  created_at: iso(r['created_at']),
});

/** Environments on SQL, unique by (project, slug). */
export function sqlEnvironments(db: Runner, t: Tables): EnvironmentRepository {
  return {
    async create(environment) {
      const { rowCount } = await db.query(
        `INSERT INTO ${t.environments} (id, organization_id, project_id, slug, require_strict_conflict_mode, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (project_id, slug) DO NOTHING`,
        [
          environment.id,
          environment.organization_id,
          environment.project_id,
          environment.slug,
          environment.require_strict_conflict_mode,
          environment.created_at,
        ],
      );
      return created(rowCount);
    },
    async get(projectId, slug) {
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM ${t.environments} WHERE project_id = $1 AND slug = $2`,
        [projectId, slug],
      );
      return rows[0] ? toEnvironment(rows[0]) : null;
    },
    async list(projectId) {
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM ${t.environments} WHERE project_id = $1 ORDER BY slug COLLATE "C"`,
        [projectId],
      );
      return rows.map(toEnvironment);
    },
    async update(id, patch) {
      const { rows } = await db.query(
        `UPDATE ${t.environments} SET require_strict_conflict_mode = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, patch.require_strict_conflict_mode],
      );
      return rows[0] ? toEnvironment(rows[0]) : null;
    },
  };
}
