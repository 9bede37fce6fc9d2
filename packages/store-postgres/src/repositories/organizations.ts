import type { Organization, OrganizationRepository } from '@latchkey/core';
import { created, iso } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

/** Named, never `*`: a column added by a later migration must not change the result of a prepared statement. */
const COLUMNS = 'id, slug, name, created_at';

export const toOrganization = (r: Record<string, unknown>): Organization => ({
  id: r['id'] as string,
  slug: r['slug'] as string,
  name: r['name'] as string,
  created_at: iso(r['created_at']),
});

/** Organizations on SQL; the slug's UNIQUE constraint makes `create` atomic. */
export function sqlOrganizations(db: Runner, t: Tables): OrganizationRepository {
  return {
    async create(org) {
      const { rowCount } = await db.query(
        `INSERT INTO ${t.organizations} (id, slug, name, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (slug) DO NOTHING`,
        [org.id, org.slug, org.name, org.created_at],
      );
      return created(rowCount);
    },
    async getBySlug(slug) {
      const { rows } = await db.query(`SELECT ${COLUMNS} FROM ${t.organizations} WHERE slug = $1`, [slug]);
      return rows[0] ? toOrganization(rows[0]) : null;
    },
    async getById(id) {
      const { rows } = await db.query(`SELECT ${COLUMNS} FROM ${t.organizations} WHERE id = $1`, [id]);
      return rows[0] ? toOrganization(rows[0]) : null;
    },
  };
}
