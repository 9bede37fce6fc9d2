import type { KeyIdRepository } from '@latchkey/core/store';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

/**
 * Key ids on SQL. Recording is one statement: two instances starting together both insert, one
 * wins the row, and both get its check back (the loser's own key then fails to open it).
 */
export function sqlKeyIds(db: Runner, t: Tables): KeyIdRepository {
  return {
    async list() {
      const { rows } = await db.query<{ key_id: string; check_value: string | null }>(
        `SELECT key_id, check_value FROM ${t.keyIds} ORDER BY key_id`,
      );
      return rows.map((row) => ({ key_id: row.key_id, check: row.check_value }));
    },
    async record(keyId, check) {
      const { rows } = await db.query<{ check_value: string }>(
        `INSERT INTO ${t.keyIds} AS k (key_id, check_value) VALUES ($1, $2)
         ON CONFLICT (key_id) DO UPDATE SET check_value = COALESCE(k.check_value, EXCLUDED.check_value)
         RETURNING check_value`,
        [keyId, check],
      );
      return rows[0]!.check_value;
    },
    async forget(keyIds) {
      if (keyIds.length === 0) return;
      await db.query(`DELETE FROM ${t.keyIds} WHERE key_id = ANY($1::text[])`, [[...keyIds]]);
    },
  };
}
