/**
 * Migration 20: each organization made through the API keeps who created it (`created_by`,
 * indexed), since a user may create a bounded number of them (`limits.organizationsPerUser`).
 */
import type { Migration } from './migration.js';

export const organizationCreators: Migration = {
  id: 20,
  name: 'organization-creators',
  statements: (t) => [
    `ALTER TABLE ${t.organizations} ADD COLUMN created_by text`,
    `CREATE INDEX organizations_created_by ON ${t.organizations} (created_by) WHERE created_by IS NOT NULL`,
  ],
};
