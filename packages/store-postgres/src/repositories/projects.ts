import type { Project, ProjectRepository } from '@latchkey/core';
import { created, iso } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

/** Named, never `*`: a column added by a later migration must not change the result of a prepared statement. */
const COLUMNS = 'id, organization_id, slug, name, created_at';

export const toProject = (r: Record<string, unknown>): Project => ({
  id: r['id'] as string,
  organization_id: r['organization_id'] as string,
  slug: r['slug'] as string,
  name: r['name'] as string,
  created_at: iso(r['created_at']),
});

/** Projects on SQL, unique by (organization, slug). */
export function sqlProjects(db: Runner, t: Tables): ProjectRepository {
  return {
    async create(project) {
      const { rowCount } = await db.query(
        `INSERT INTO ${t.projects} (id, organization_id, slug, name, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (organization_id, slug) DO NOTHING`,
        [project.id, project.organization_id, project.slug, project.name, project.created_at],
      );
      return created(rowCount);
    },
    async get(organizationId, slug) {
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM ${t.projects} WHERE organization_id = $1 AND slug = $2`,
        [organizationId, slug],
      );
      return rows[0] ? toProject(rows[0]) : null;
    },
    async list(organizationId) {
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM ${t.projects} WHERE organization_id = $1 ORDER BY slug COLLATE "C"`,
        [organizationId],
      );
      return rows.map(toProject);
    },
  };
}
