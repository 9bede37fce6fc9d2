import type { Cosignature, Witness, WitnessRepository } from '@latchkey/core/store';
import { integer, recordColumns, text, timestamp } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

const WITNESS = recordColumns<Witness>({
  organization_id: text(),
  name: text(),
  public_key: text(),
  created_at: timestamp(),
});

const COSIGNATURE = recordColumns<Cosignature>({
  organization_id: text(),
  tree_size: integer(),
  root_hash: text(),
  witness: text(),
  timestamp: integer(),
  line: text(),
});

/**
 * Witnesses and cosignatures on SQL. An add locks the organization's row first, so the count it
 * checks cannot change before its insert; the unique keys settle the rest.
 */
export function sqlWitnesses(db: Runner, t: Tables): WitnessRepository {
  const witnesses = recordTable(db, t.witnesses, WITNESS);
  const cosignatures = recordTable(db, t.cosignatures, COSIGNATURE);
  return {
    add: (witness, max) =>
      db.atomic(async (q) => {
        await q.query(`SELECT 1 FROM ${t.organizations} WHERE id = $1 FOR UPDATE`, [witness.organization_id]);
        const { rows } = await q.query<{ name: string; public_key: string }>(
          `SELECT name, public_key FROM ${t.witnesses} WHERE organization_id = $1`,
          [witness.organization_id],
        );
        if (rows.some((r) => r.name === witness.name || r.public_key === witness.public_key))
          return 'duplicate';
        if (rows.length >= max) return 'limit';
        await recordTable(q, t.witnesses, WITNESS).insert(witness);
        return 'added';
      }),
    list: (organizationId) =>
      witnesses.list('organization_id = $1 ORDER BY name COLLATE "C"', [organizationId]),
    async remove(organizationId, name) {
      // The cosignatures go with it (ON DELETE CASCADE), in the same statement.
      const { rows } = await db.query<Record<string, unknown>>(
        `DELETE FROM ${t.witnesses} WHERE organization_id = $1 AND name = $2 RETURNING ${WITNESS.names}`,
        [organizationId, name],
      );
      return rows[0] ? WITNESS.read(rows[0]) : null;
    },
    putCosignature: (c, keepHeads) =>
      db.atomic(async (q) => {
        const { rowCount } = await q.query(
          `INSERT INTO ${t.cosignatures} AS c (${COSIGNATURE.names})
           SELECT ${COSIGNATURE.placeholders}
           WHERE EXISTS (SELECT 1 FROM ${t.witnesses} WHERE organization_id = $1 AND name = $4)
           ON CONFLICT (organization_id, tree_size, root_hash, witness) DO UPDATE
             SET timestamp = EXCLUDED.timestamp, line = EXCLUDED.line
             WHERE c.timestamp < EXCLUDED.timestamp`,
          COSIGNATURE.values(c),
        );
        const registered =
          rowCount > 0 ||
          (
            await q.query(`SELECT 1 FROM ${t.witnesses} WHERE organization_id = $1 AND name = $2`, [
              c.organization_id,
              c.witness,
            ])
          ).rows.length > 0;
        if (!registered) return false;
        await q.query(
          `DELETE FROM ${t.cosignatures} WHERE organization_id = $1 AND tree_size < (
             SELECT COALESCE(min(tree_size), 0) FROM (
               SELECT DISTINCT tree_size FROM ${t.cosignatures} WHERE organization_id = $1
               ORDER BY tree_size DESC LIMIT $2) AS kept)`,
          [c.organization_id, keepHeads],
        );
        return true;
      }),
    cosignatures: (organizationId, treeSize, rootHash) =>
      cosignatures.list(
        'organization_id = $1 AND tree_size = $2 AND root_hash = $3 ORDER BY witness COLLATE "C"',
        [organizationId, treeSize, rootHash],
      ),
  };
}
