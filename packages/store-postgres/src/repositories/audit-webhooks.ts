import type { AuditWebhook, AuditWebhookRepository } from '@latchkey/core/store';
import { integer, jsonb, recordColumns, text, textArray, timestamp } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import { deliveriesChannel, type Tables } from '../schema-name.js';

const WEBHOOK = recordColumns<AuditWebhook>({
  id: text(),
  organization_id: text(),
  name: text(),
  url: text(),
  status: text<AuditWebhook['status']>(),
  event_types: textArray(),
  secret_sealed: text(),
  signature_scheme: {
    read: (value) => value as AuditWebhook['signature_scheme'],
    write: (value) => value ?? 'latchkey',
  },
  previous_secret: jsonb(),
  consecutive_failures: integer(),
  last_delivery: jsonb(),
  last_error: jsonb(),
  created_at: timestamp(),
  created_by: text(),
});

/** An audit webhook's row as the record. */
export const toAuditWebhook = WEBHOOK.read;

const ONE = 'organization_id = $1 AND id = $2';

/** Audit webhooks on SQL; moves between states change their deliveries in the same transaction. */
export function sqlAuditWebhooks(db: Runner, t: Tables): AuditWebhookRepository {
  const webhooks = recordTable(db, t.webhooks, WEBHOOK);
  return {
    create: (w) => webhooks.insert(w),
    get: (organizationId, id) => webhooks.find(ONE, [organizationId, id]),
    list: (organizationId) => webhooks.list('organization_id = $1 ORDER BY created_at, id', [organizationId]),
    async organizationIds() {
      const { rows } = await db.query<{ organization_id: string }>(organizationIdsQuery(t));
      return rows.map((r) => r.organization_id);
    },
    update: (organizationId, id, changes) =>
      webhooks.update(
        'name = COALESCE($3, name), url = COALESCE($4, url), event_types = COALESCE($5::text[], event_types), signature_scheme = COALESCE($6, signature_scheme)',
        ONE,
        [
          organizationId,
          id,
          changes.name ?? null,
          changes.url ?? null,
          changes.event_types ?? null,
          changes.signature_scheme ?? null,
        ],
      ),
    setSecret: (organizationId, id, secretSealed, previous) =>
      webhooks.update('secret_sealed = $3, previous_secret = $4::jsonb', ONE, [
        organizationId,
        id,
        secretSealed,
        previous ? JSON.stringify(previous) : null,
      ]),
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
        const webhook = await recordTable(q, t.webhooks, WEBHOOK).update("status = 'disabled'", ONE, [
          organizationId,
          id,
        ]);
        if (webhook) await q.query(`DELETE FROM ${t.deliveries} WHERE webhook_id = $1`, [id]);
        return webhook;
      });
    },
    enable(organizationId, id, at) {
      return db.atomic(async (q) => {
        const webhook = await recordTable(q, t.webhooks, WEBHOOK).update(
          "status = 'active', consecutive_failures = 0",
          ONE,
          [organizationId, id],
        );
        if (!webhook) return null;
        const { rowCount } = await q.query(
          `UPDATE ${t.deliveries} SET state = 'pending', attempts = 0, next_attempt_at = $2, lease_until = NULL
           WHERE webhook_id = $1 AND state = 'held'`,
          [id, at],
        );
        // Released deliveries are due now: wake the engines as a newly queued one would.
        if (rowCount > 0) await q.query('SELECT pg_notify($1, $2)', [deliveriesChannel(t.schema), '']);
        return { webhook, released: rowCount };
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
