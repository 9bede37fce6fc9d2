import type { Project, ProjectRepository } from '@latchkey/core/store';
import { namedRecords } from '../named-records.js';
import { recordColumns, text, timestamp } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

const PROJECT = recordColumns<Project>({
  id: text(),
  organization_id: text(),
  slug: text(),
  name: text(),
  created_at: timestamp(),
});

/** A project's row (or its JSON object) as the record. */
export const toProject = PROJECT.read;

/** Projects on SQL, unique by (organization, slug). */
export function sqlProjects(db: Runner, t: Tables): ProjectRepository {
  return namedRecords(recordTable(db, t.projects, PROJECT), 'organization_id', 'slug');
}
