/**
 * Migration 20: each organization made through the API keeps who created it (`created_by`,
 * indexed), since a user may create a bounded number of them (`limits.organizationsPerUser`).
 */
import { migration } from './migration.js';

export const organizationCreators = migration(20, 'organization-creators', (t) => [
  `ALTER TABLE ${t.organizations} ADD COLUMN created_by text`,
  `CREATE INDEX organizations_created_by ON ${t.organizations} (created_by) WHERE created_by IS NOT NULL`,
]);
