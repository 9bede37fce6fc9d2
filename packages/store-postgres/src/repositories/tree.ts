/**
 * The Merkle tree on SQL: the statement parts that store an append's new nodes and move the tree's
 * frontier with the chain head (in the append's own statement, so no extra round trip), and the
 * reads behind proofs. Hashes travel as hex text, read and written the same way by both drivers.
 */
import {
  type ActivityTreeReads,
  EMPTY_TREE,
  type StoredNode,
  type TreeState,
  treeHeadAt,
  unpackFrontier,
} from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
import { int } from '../rows.js';
import type { Tables } from '../schema-name.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The tree as a chain head row holds it (`tree_size`, and `tree_frontier` read as hex). */
export function treeOfRow(row: { tree_size: unknown; tree_frontier: string } | undefined): TreeState {
  if (!row) return EMPTY_TREE;
  return {
    size: int(row.tree_size),
    frontier: unpackFrontier(new Uint8Array(Buffer.from(row.tree_frontier, 'hex'))),
  };
}

/** The columns a chain head read selects for {@link treeOfRow}. */
export const TREE_COLUMNS = `tree_size, encode(tree_frontier, 'hex') AS tree_frontier`;

/** An append's tree writes: the new tree and its finished nodes, or null when the tree lags the chain. */
export type TreeWrite = { tree: TreeState; nodes: StoredNode[] } | null;

/**
 * The CTE that inserts an append's nodes, its parameters at `$first` to `$first + 2`
 * ({@link treeParams}); `$1` is the organization. Ends with a comma, to go before the final write.
 * `when`, if given, is a condition the nodes are inserted under (none are, when it is false).
 */
export function treeNodesStatement(t: Tables, first: number, when = 'true'): string {
  return `stored_nodes AS (
      INSERT INTO ${t.treeNodes} (organization_id, level, idx, hash)
      SELECT $1, n.l, n.i, decode(n.h, 'hex')
      FROM unnest($${first}::smallint[], $${first + 1}::bigint[], $${first + 2}::text[]) AS n(l, i, h)
      WHERE ${when}
      ON CONFLICT DO NOTHING
    ), `;
}

/**
 * The chain head's tree columns set from `$first + 3` (the new frontier in hex, null to leave the
 * tree as it is) and `sizeSql`, the new size when it moves.
 */
export function treeHeadSet(first: number, sizeSql: string, table = ''): string {
  const column = (name: string) => (table ? `${table}.${name}` : name);
  return `tree_size = CASE WHEN $${first + 3}::text IS NULL THEN ${column('tree_size')} ELSE ${sizeSql} END,
      tree_frontier = COALESCE(decode($${first + 3}::text, 'hex'), ${column('tree_frontier')})`;
}

/** The four parameters of {@link treeNodesStatement} and {@link treeHeadSet}. */
export function treeParams(write: TreeWrite): unknown[] {
  if (!write) return [[], [], [], null];
  return [
    write.nodes.map((n) => n.level),
    write.nodes.map((n) => n.index),
    write.nodes.map((n) => hex(n.hash)),
    hex(Buffer.concat(write.tree.frontier.map((h) => Buffer.from(h)))),
  ];
}

/** The tree reads on SQL. */
export function sqlTreeReads(q: SqlQueryable, t: Tables): ActivityTreeReads {
  const treeNodes = async (
    organizationId: string,
    addresses: readonly { level: number; index: number }[],
  ) => {
    if (addresses.length === 0) return [];
    const { rows } = await q.query<{ level: unknown; idx: unknown; hash: string }>(
      `SELECT n.level, n.idx, encode(n.hash, 'hex') AS hash
       FROM unnest($2::smallint[], $3::bigint[]) AS a(level, idx)
       JOIN ${t.treeNodes} n ON n.organization_id = $1 AND n.level = a.level AND n.idx = a.idx`,
      [organizationId, addresses.map((a) => a.level), addresses.map((a) => a.index)],
    );
    const found = new Map(rows.map((r) => [`${int(r.level)}/${int(r.idx)}`, r.hash]));
    return addresses.map(({ level, index }) => {
      const hash = found.get(`${level}/${index}`);
      if (hash === undefined)
        throw new Error(`tree node ${level}/${index} of ${organizationId} is not stored`);
      return new Uint8Array(Buffer.from(hash, 'hex'));
    });
  };
  return {
    treeNodes,
    async treeHead(organizationId, size) {
      const { rows } = await q.query<{ tree_size: unknown; tree_frontier: string }>(
        `SELECT ${TREE_COLUMNS} FROM ${t.chains} WHERE organization_id = $1`,
        [organizationId],
      );
      return treeHeadAt(treeOfRow(rows[0]), size, (addresses) => treeNodes(organizationId, addresses));
    },
  };
}
