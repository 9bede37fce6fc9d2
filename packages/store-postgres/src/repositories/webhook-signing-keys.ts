import type {
  RotationBounds,
  RotationOutcome,
  WebhookSigningKey,
  WebhookSigningKeyRepository,
} from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
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

/** A bounded rotation's statements: take the organization's turn, count its window, cut, prune. */
function boundedRotation(t: Tables) {
  return {
    // Rotations of one organization take turns, so each counts the keys the one before it made.
    lock: 'SELECT pg_advisory_xact_lock(hashtext($1)) AS locked',
    window: `SELECT count(*)::int AS made, min(created_at) AS oldest FROM ${t.signingKeys}
      WHERE organization_id = $1 AND created_at > $2`,
    cut: `UPDATE ${t.signingKeys} SET retires_at = $2
      WHERE organization_id = $1 AND retires_at IS NOT NULL AND retires_at > $2`,
    prune: `DELETE FROM ${t.signingKeys} WHERE organization_id = $1 AND retires_at <= $2
      AND id NOT IN (SELECT id FROM ${t.signingKeys} WHERE organization_id = $1
        ORDER BY created_at DESC, id DESC LIMIT $3)`,
  };
}

/**
 * Webhook signing keys on SQL. The partial unique index on the current key makes `ensureCurrent`
 * one race-safe insert, and `rotate` retires and inserts in one transaction; a bounded rotation
 * takes the organization's advisory lock first, so its count of the window is exact.
 */
export function sqlWebhookSigningKeys(db: Runner, t: Tables): WebhookSigningKeyRepository {
  const keys = recordTable(db, t.signingKeys, KEY);
  const insertCurrent = `INSERT INTO ${t.signingKeys} (${KEY.names}) VALUES (${KEY.placeholders})
    ON CONFLICT (organization_id) WHERE retires_at IS NULL DO NOTHING`;
  const bounded = boundedRotation(t);
  /** The oldest key made in the window when it is full; else null, earlier retirements cut. */
  const admit = async (q: SqlQueryable, organizationId: string, bounds: RotationBounds) => {
    await q.query(bounded.lock, [`latchkey:signing-keys:${t.schema}:${organizationId}`]);
    const { rows } = await q.query<{ made: number; oldest: Date | string | null }>(bounded.window, [
      organizationId,
      bounds.windowStart,
    ]);
    const { made, oldest } = rows[0]!;
    if (made >= bounds.maxPerWindow && oldest !== null) return new Date(oldest).toISOString();
    await q.query(bounded.cut, [organizationId, bounds.at]);
    return null;
  };
  return {
    list: (organizationId) => keys.list('organization_id = $1 ORDER BY created_at, id', [organizationId]),
    async ensureCurrent(key) {
      await db.query(insertCurrent, KEY.values(key));
      const current = await keys.find('organization_id = $1 AND retires_at IS NULL', [key.organization_id]);
      return current ?? key;
    },
    rotate(next, retiresAt, bounds) {
      const organizationId = next.organization_id;
      return db.atomic(async (q): Promise<RotationOutcome> => {
        if (bounds) {
          const oldestInWindow = await admit(q, organizationId, bounds);
          if (oldestInWindow !== null) return { ok: false, oldestInWindow };
        }
        const retired = await recordTable(q, t.signingKeys, KEY).update(
          'retires_at = $2',
          'organization_id = $1 AND retires_at IS NULL',
          [organizationId, retiresAt],
        );
        await recordTable(q, t.signingKeys, KEY).insert(next);
        if (bounds) await q.query(bounded.prune, [organizationId, bounds.at, bounds.keep]);
        return { ok: true, retired };
      });
    },
    async insertMany(list) {
      for (const key of list) await keys.insert(key);
    },
    async deleteAll(organizationId) {
      await db.query(`DELETE FROM ${t.signingKeys} WHERE organization_id = $1`, [organizationId]);
    },
    replacePrivateKey: (organizationId, id, from, to) =>
      keys.replace('private_key_sealed', 'organization_id = $1 AND id = $2', [organizationId, id], from, to),
    async organizationIds() {
      const { rows } = await db.query<{ organization_id: string }>(
        `SELECT DISTINCT organization_id FROM ${t.signingKeys} ORDER BY organization_id`,
      );
      return rows.map((r) => r.organization_id);
    },
  };
}
