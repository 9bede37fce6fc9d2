import type { ApprovalPolicy, Environment, EnvironmentRepository } from '@latchkey/core/store';
import { namedRecords } from '../named-records.js';
import { flag, jsonb, recordColumns, text, timestamp } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

const ENVIRONMENT = recordColumns<Environment>({
  id: text(),
  organization_id: text(),
  project_id: text(),
  slug: text(),
  require_strict_conflict_mode: flag(),
  approval_policy: jsonb<ApprovalPolicy | null>(),
  created_at: timestamp(),
});

/** An environment's row (or its JSON object) as the record. */
export const toEnvironment = ENVIRONMENT.read;

/** Environments on SQL, unique by (project, slug). */
export function sqlEnvironments(db: Runner, t: Tables): EnvironmentRepository {
  const environments = recordTable(db, t.environments, ENVIRONMENT);
  return {
    ...namedRecords(environments, 'project_id', 'slug'),
    update: (id, patch) =>
      environments.update('require_strict_conflict_mode = $2, approval_policy = $3::jsonb', 'id = $1', [
        id,
        patch.require_strict_conflict_mode,
        patch.approval_policy ? JSON.stringify(patch.approval_policy) : null,
      ]),
  };
}
