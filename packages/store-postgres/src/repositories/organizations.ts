import type { Organization, OrganizationRepository } from '@latchkey/core/store';
import { recordColumns, text, timestamp } from '../record-columns.js';
import { recordTable } from '../record-table.js';
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
    create: (org) => organizations.insertNew(org, 'slug'),
    getBySlug: (slug) => organizations.find('slug = $1', [slug]),
    getById: (id) => organizations.find('id = $1', [id]),
  };
}
