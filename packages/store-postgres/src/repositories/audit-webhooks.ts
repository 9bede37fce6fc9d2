import type { AuditWebhook, AuditWebhookRepository } from '@latchkey/core';
import { iso, json } from '../rows.js';
import type { Runner } from '../runner.js';
import { deliveriesChannel, type Tables } from '../schema-name.js';

const COLUMNS =
  'id, organization_id, name, url, status, secret_sealed, consecutive_failures, last_delivery, last_error, created_at, created_by';

/** A nullable jsonb column. */
const jsonOrNull = <T>(value: unknown): T | null =>
  value === null || value === undefined ? null : json<T>(value);

export const toAuditWebhook = (r: Record<string, unknown>): AuditWebhook => ({
  id: r['id'] as string,
  organization_id: r['organization_id'] as string,
  name: r['name'] as string,
  url: r['url'] as string,
  status: r['status'] as AuditWebhook['status'],
  secret_sealed: r['secret_sealed'] as string,
  consecutive_failures: Number(r['consecutive_failures']),
  last_delivery: jsonOrNull(r['last_delivery']),
  last_error: jsonOrNull(r['last_error']),
  created_at: iso(r['created_at']),
  created_by: r['created_by'] as string,
});

/** Audit webhooks on SQL; moves between states change their deliveries in the same transaction. */
export function sqlAuditWebhooks(db: Runner, t: Tables): AuditWebhookRepository {
  return {
    async create(w) {
      await db.query(
        `INSERT INTO ${t.webhooks} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11)`,
        [
          w.id,
          w.organization_id,
          w.name,
          w.url,
          w.status,
          w.secret_sealed,
          w.consecutive_failures,
          w.last_delivery === null ? null : JSON.stringify(w.last_delivery),
          w.last_error === null ? null : JSON.stringify(w.last_error),
          w.created_at,
          w.created_by,
        ],
      );
    },
    async get(organizationId, id) {
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM ${t.webhooks} WHERE organization_id = $1 AND id = $2`,
        [organizationId, id],
      );
      return rows[0] ? toAuditWebhook(rows[0]) : null;
    },
    async list(organizationId) {
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM ${t.webhooks} WHERE organization_id = $1 ORDER BY created_at, id`,
        [organizationId],
      );
      return rows.map(toAuditWebhook);
    },
    async organizationIds() {
      const { rows } = await db.query<{ organization_id: string }>(organizationIdsQuery(t));
      return rows.map((r) => r.organization_id);
    },
    async setSecret(organizationId, id, secretSealed) {
      const { rows } = await db.query(
        `UPDATE ${t.webhooks} SET secret_sealed = $3 WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [organizationId, id, secretSealed],
      );
      return rows[0] ? toAuditWebhook(rows[0]) : null;
    },
    async replaceSecret(organizationId, id, from, to) {
      const result = await db.query(
        `UPDATE ${t.webhooks} SET secret_sealed = $4
         WHERE organization_id = $1 AND id = $2 AND secret_sealed = $3`,
        [organizationId, id, from, to],
      );
      return (result.rowCount ?? 0) === 1;
    },
    disable(organizationId, id) {
      return db.atomic(async (q) => {
        const { rows } = await q.query(
          `UPDATE ${t.webhooks} SET status = 'disabled' WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
          [organizationId, id],
        );
        if (!rows[0]) return null;
        await q.query(`DELETE FROM ${t.deliveries} WHERE webhook_id = $1`, [id]);
        return toAuditWebhook(rows[0]);
      });
    },
    enable(organizationId, id, at) {
      return db.atomic(async (q) => {
        const { rows } = await q.query(
          `UPDATE ${t.webhooks} SET status = 'active', consecutive_failures = 0
           WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
          [organizationId, id],
        );
        if (!rows[0]) return null;
        const { rowCount } = await q.query(
          `UPDATE ${t.deliveries} SET state = 'pending', attempts = 0, next_attempt_at = $2, lease_until = NULL
           WHERE webhook_id = $1 AND state = 'held'`,
          [id, at],
        );
        // Released deliveries are due now: wake the engines as a newly queued one would.
        if (rowCount > 0) await q.query('SELECT pg_notify($1, $2)', [deliveriesChannel(t.schema), '']);
        return { webhook: toAuditWebhook(rows[0]), released: rowCount };
      });
    },
  };
}

/**
 * The organizations that have webhooks, by a skip scan of the webhooks' organization index (one
 * probe per organization, not a read of every webhook).
 */
export const organizationIdsQuery = (t: Tables) =>
  `WITH RECURSIVE orgs AS (
     (SELECT organization_id FROM ${t.webhooks} ORDER BY organization_id LIMIT 1)
     UNION ALL
     SELECT (SELECT w.organization_id FROM ${t.webhooks} w WHERE w.organization_id > o.organization_id
             ORDER BY w.organization_id LIMIT 1)
     FROM orgs o WHERE o.organization_id IS NOT NULL
   )
   SELECT organization_id FROM orgs WHERE organization_id IS NOT NULL`;
