import type { WebhookSigningKey, WebhookSigningKeyRepository } from '@latchkey/core/store';
import { recordColumns, text, timestamp, timestampOrNull } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

const KEY = recordColumns<WebhookSigningKey>({
  id: text(),
  organization_id: text(),
  public_key: text(),
  private_key_sealed: text(),
  created_at: timestamp(),
  retires_at: timestampOrNull(),
});

/**
 * Webhook signing keys on SQL. The partial unique index on the current key makes `ensureCurrent`
 * one race-safe insert, and `rotate` retires and inserts in one transaction.
 */
export function sqlWebhookSigningKeys(db: Runner, t: Tables): WebhookSigningKeyRepository {
  const keys = recordTable(db, t.signingKeys, KEY);
  const insertCurrent = `INSERT INTO ${t.signingKeys} (${KEY.names}) VALUES (${KEY.placeholders})
    ON CONFLICT (organization_id) WHERE retires_at IS NULL DO NOTHING`;
  return {
    list: (organizationId) => keys.list('organization_id = $1 ORDER BY created_at, id', [organizationId]),
    async ensureCurrent(key) {
      await db.query(insertCurrent, KEY.values(key));
      const current = await keys.find('organization_id = $1 AND retires_at IS NULL', [key.organization_id]);
      return current ?? key;
    },
    rotate(next, retiresAt) {
      return db.atomic(async (q) => {
        const retired = await recordTable(q, t.signingKeys, KEY).update(
          'retires_at = $2',
          'organization_id = $1 AND retires_at IS NULL',
          [next.organization_id, retiresAt],
        );
        await recordTable(q, t.signingKeys, KEY).insert(next);
        return retired;
      });
    },
    async insertMany(list) {
      for (const key of list) await keys.insert(key);
    },
    async deleteAll(organizationId) {
      await db.query(`DELETE FROM ${t.signingKeys} WHERE organization_id = $1`, [organizationId]);
    },
    async replacePrivateKey(organizationId, id, from, to) {
      const result = await db.query(
        `UPDATE ${t.signingKeys} SET private_key_sealed = $4
         WHERE organization_id = $1 AND id = $2 AND private_key_sealed = $3`,
        [organizationId, id, from, to],
      );
      return (result.rowCount ?? 0) === 1;
    },
    async organizationIds() {
      const { rows } = await db.query<{ organization_id: string }>(
        `SELECT DISTINCT organization_id FROM ${t.signingKeys} ORDER BY organization_id`,
      );
      return rows.map((r) => r.organization_id);
    },
  };
}
