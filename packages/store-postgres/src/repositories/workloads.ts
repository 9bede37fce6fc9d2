import type { WorkloadIdentity, WorkloadRepository } from '@latchkey/core/store';
import { type Column, integer, jsonb, recordColumns, text, textArray, timestamp } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { issueWorkloadToken, TOKEN } from './workload-issue.js';

const IDENTITY = recordColumns<WorkloadIdentity>({
  id: text(),
  organization_id: text(),
  name: text(),
  issuer: text(),
  audience: text(),
  subject: text(),
  claims: jsonb<Record<string, string>>(),
  grants: jsonb<WorkloadIdentity['grants']>(),
  actions: textArray() as Column<WorkloadIdentity['actions']>,
  token_ttl_seconds: integer(),
  created_at: timestamp(),
});

const BY_NAME_OR_ID = 'organization_id = $1 AND (name = $2 OR id = $2)';

/**
 * Workload identities on SQL. A create locks the organization's row first, so the count it checks
 * cannot change before its insert; an exchange locks the identity's row, so a delete waits for it
 * (or it finds the identity gone), and the `jti`'s primary key refuses a replay racing it; the
 * exchange's writes are one statement (`workload-issue.ts`).
 */
export function sqlWorkloads(db: Runner, t: Tables): WorkloadRepository {
  const identities = recordTable(db, t.workloadIdentities, IDENTITY);
  return {
    create: (identity, max) =>
      db.atomic(async (q) => {
        await q.query(`SELECT 1 FROM ${t.organizations} WHERE id = $1 FOR UPDATE`, [
          identity.organization_id,
        ]);
        const { rows } = await q.query<{ name: string }>(
          `SELECT name FROM ${t.workloadIdentities} WHERE organization_id = $1`,
          [identity.organization_id],
        );
        if (rows.some((r) => r.name === identity.name)) return 'duplicate';
        if (rows.length >= max) return 'limit';
        await recordTable(q, t.workloadIdentities, IDENTITY).insert(identity);
        return 'created';
      }),
    list: (organizationId) =>
      identities.list('organization_id = $1 ORDER BY name COLLATE "C"', [organizationId]),
    get: (organizationId, nameOrId) => identities.find(BY_NAME_OR_ID, [organizationId, nameOrId]),
    remove: (organizationId, nameOrId, at) =>
      db.atomic(async (q) => {
        const { rows } = await q.query<Record<string, unknown>>(
          `DELETE FROM ${t.workloadIdentities} WHERE ${BY_NAME_OR_ID} RETURNING ${IDENTITY.names}`,
          [organizationId, nameOrId],
        );
        if (!rows[0]) return null;
        const identity = IDENTITY.read(rows[0]);
        // Its tokens went with it (ON DELETE CASCADE); its devices stop signing now.
        await q.query(
          `UPDATE ${t.devices} SET status = 'revoked', revoked_at = COALESCE(revoked_at, $3)
           WHERE organization_id = $1 AND user_id = $2 AND status <> 'revoked'`,
          [organizationId, identity.id, at],
        );
        return identity;
      }),
    issue: (issue) => db.atomic((q) => issueWorkloadToken(q, t, issue)),
    async findToken(tokenHash) {
      const { rows } = await db.query<Record<string, unknown>>(
        `SELECT to_jsonb(k) AS token, to_jsonb(i) AS identity
         FROM ${t.workloadTokens} k JOIN ${t.workloadIdentities} i ON i.id = k.identity_id
         WHERE k.token_hash = $1`,
        [tokenHash],
      );
      const row = rows[0];
      return row
        ? { token: TOKEN.read(json(row['token'])), identity: IDENTITY.read(json(row['identity'])) }
        : null;
    },
  };
}

const json = (value: unknown): Record<string, unknown> =>
  (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
