import type {
  ChangeRequest,
  ChangeRequestApproval,
  ChangeRequestChange,
  ChangeRequestRepository,
  ChangeRequestStatus,
} from '@latchkey/core/store';
import { integer, jsonb, recordColumns, text, timestamp } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

const CHANGE_REQUEST = recordColumns<ChangeRequest>({
  id: text(),
  organization_id: text(),
  project_id: text(),
  environment_id: text(),
  project: text(),
  environment: text(),
  status: text<ChangeRequestStatus>(),
  title: text(),
  description: text(),
  created_by: text(),
  device_id: text(),
  created_at: timestamp(),
  expires_at: timestamp(),
  required_approvals: integer(),
  changes: jsonb<ChangeRequestChange[]>(),
  approvals: jsonb<ChangeRequestApproval[]>(),
  rejection: jsonb<ChangeRequest['rejection']>(),
  applied: jsonb<ChangeRequest['applied']>(),
  revision: integer(),
});

const PATCHABLE = ['status', 'approvals', 'rejection', 'applied'] as const;

/**
 * Change requests on SQL. A create locks its environment's row, so the count of open requests it
 * checks cannot change before its insert; an update is one compare-and-set on `revision`.
 */
export function sqlChangeRequests(db: Runner, t: Tables): ChangeRequestRepository {
  const requests = recordTable(db, t.changeRequests, CHANGE_REQUEST);
  return {
    create: (request, maxOpen) =>
      db.atomic(async (q) => {
        const { rows } = await q.query<{ open: string }>(
          `SELECT (SELECT count(*) FROM ${t.changeRequests}
             WHERE environment_id = $1 AND status IN ('open', 'approved')) AS open
           FROM ${t.environments} WHERE id = $1 FOR UPDATE`,
          [request.environment_id],
        );
        if (Number(rows[0]?.open ?? 0) >= maxOpen) return 'limit';
        await recordTable(q, t.changeRequests, CHANGE_REQUEST).insert(request);
        return 'created';
      }),
    get: (organizationId, id) => requests.find('id = $1 AND organization_id = $2', [id, organizationId]),
    list: ({ environmentId, status, before, limit }) =>
      requests.list(
        `environment_id = $1 AND ($2::text IS NULL OR status = $2)
         AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::text))
         ORDER BY created_at DESC, id DESC LIMIT $5`,
        [environmentId, status ?? null, before?.created_at ?? null, before?.id ?? null, limit],
      ),
    update(id, revision, patch) {
      const sets: string[] = ['revision = revision + 1'];
      const params: unknown[] = [id, revision];
      for (const field of PATCHABLE) {
        if (patch[field] === undefined) continue;
        const value = patch[field];
        params.push(field === 'status' ? value : value === null ? null : JSON.stringify(value));
        sets.push(`${field} = $${params.length}${field === 'status' ? '' : '::jsonb'}`);
      }
      return requests.update(sets.join(', '), 'id = $1 AND revision = $2', params);
    },
    listOpen: (environmentId) =>
      requests.list(`environment_id = $1 AND status IN ('open', 'approved') ORDER BY created_at, id`, [
        environmentId,
      ]),
  };
}
