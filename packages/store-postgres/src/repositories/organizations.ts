import type { Organization, OrganizationRepository } from '@latchkey/core/store';
import { recordColumns, text, timestamp } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import { created } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

const ORGANIZATION = recordColumns<Organization>({
  id: text(),
  slug: text(),
  name: text(),
  created_at: timestamp(),
});

/** An organization's row (or its JSON object) as the record. */
export const toOrganization = ORGANIZATION.read;

/** Organizations on SQL; the slug's UNIQUE constraint makes `create` atomic. */
export function sqlOrganizations(db: Runner, t: Tables): OrganizationRepository {
  const organizations = recordTable(db, t.organizations, ORGANIZATION);
  return {
    create(org, creator) {
      if (!creator) return organizations.insertNew(org, 'slug');
      // One user's creations take turns (a lock keyed by schema and user), so the count holds.
      return db.atomic(async (q) => {
        await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `latchkey:organization-creator:${t.schema}:${creator.user}`,
        ]);
        const { rows } = await q.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${t.organizations} WHERE created_by = $1`,
          [creator.user],
        );
        if ((rows[0]?.n ?? 0) >= creator.max) return 'limit';
        const values = [...ORGANIZATION.values(org), creator.user];
        const { rowCount } = await q.query(
          `INSERT INTO ${t.organizations} (${ORGANIZATION.names}, created_by)
           VALUES (${ORGANIZATION.placeholders}, $${values.length}) ON CONFLICT (slug) DO NOTHING`,
          values,
        );
        return created(rowCount);
      });
    },
    getBySlug: (slug) => organizations.find('slug = $1', [slug]),
    getById: (id) => organizations.find('id = $1', [id]),
  };
}
