/**
 * The versions of each key on SQL: the statement part a push adds to write its version rows and
 * prune the values beyond the kept ones, and the reads (a page of one key, an environment for a
 * backup, the re-encrypt walk), each a range of `secret_versions`' primary key or kept-value index.
 */
import type { SecretRepository, StoredSecretVersion } from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
import { int, iso } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

/**
 * The CTEs of a push that write its version rows and drop the values of versions up to each key's
 * new version minus the kept count. The pruning finds its rows key by key in the kept-value index
 * (usually the one version that just fell out of the window) and updates them by row address: a
 * plain join let the planner read every kept version of the environment for each push, which grows
 * with the environment. The keys' heads are locked by the push, so no other push moves those rows;
 * a re-encryption that rewrites one meanwhile leaves it to the key's next push (the bound is `<=`). Placed in the push's statement, after its `written` CTE, it
 * reads the push's keys, versions, values and environment at `$first` to `$first + 3`, and its own
 * six parameters right after them (see {@link versionParams}). The pruning cannot touch the rows
 * inserted beside it (the same snapshot), nor would it: a new version is always kept.
 */
export function versionStatement(t: Tables, first: number): string {
  const p = (offset: number) => `$${first + offset}`;
  return `versioned AS (
        INSERT INTO ${t.secretVersions}
          (environment_id, key, version, deleted, value, occurred_at, actor_type, actor_id, device_id, event_id)
        SELECT ${p(3)}, w.key, w.version, w.value IS NULL, w.value, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}
        FROM unnest(${p(0)}::text[], ${p(1)}::int[], ${p(2)}::text[]) AS w(key, version, value)
      ), pruned AS (
        UPDATE ${t.secretVersions} AS v SET value = NULL
        WHERE v.ctid = ANY (ARRAY(
          SELECT old.ctid FROM unnest(${p(0)}::text[], ${p(1)}::int[]) AS p(key, version)
          CROSS JOIN LATERAL (
            SELECT x.ctid FROM ${t.secretVersions} x
            WHERE x.environment_id = ${p(3)} AND x.key = p.key AND x.value IS NOT NULL AND x.version <= p.version - ${p(9)}
            OFFSET 0
          ) AS old
        ))
      ), `;
}

/** The six parameters of {@link versionStatement} after the push's: the rows' shared metadata and the kept count. */
export function versionParams(row: StoredSecretVersion | undefined, kept: number): unknown[] {
  return [
    row?.occurred_at ?? null,
    row?.actor?.type ?? null,
    row?.actor?.id ?? null,
    row?.device_id ?? null,
    row?.event_id ?? null,
    kept,
  ];
}

const COLUMNS = 'key, version, deleted, value, occurred_at, actor_type, actor_id, device_id, event_id';

interface VersionRow {
  key: string;
  version: unknown;
  deleted: boolean;
  value: string | null;
  occurred_at: unknown;
  actor_type: string | null;
  actor_id: string | null;
  device_id: string | null;
  event_id: string | null;
}

function toVersion(r: VersionRow): StoredSecretVersion {
  return {
    key: r.key,
    version: int(r.version),
    deleted: r.deleted,
    value: r.value,
    occurred_at: iso(r.occurred_at),
    actor:
      r.actor_type === null || r.actor_id === null
        ? null
        : { type: r.actor_type as 'user' | 'system', id: r.actor_id },
    device_id: r.device_id,
    event_id: r.event_id,
  };
}

/** Inserts version rows as they are (a restore's). */
export async function insertVersions(
  q: SqlQueryable,
  t: Tables,
  environmentIds: readonly string[],
  rows: readonly StoredSecretVersion[],
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO ${t.secretVersions} (environment_id, ${COLUMNS})
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::bool[], $5::text[], $6::timestamptz[],
       $7::text[], $8::text[], $9::text[], $10::text[])`,
    [
      environmentIds,
      rows.map((r) => r.key),
      rows.map((r) => r.version),
      rows.map((r) => r.deleted),
      rows.map((r) => r.value),
      rows.map((r) => r.occurred_at),
      rows.map((r) => r.actor?.type ?? null),
      rows.map((r) => r.actor?.id ?? null),
      rows.map((r) => r.device_id),
      rows.map((r) => r.event_id),
    ],
  );
}

/** The version reads and the re-encrypt writes of the SQL store. */
export function sqlSecretVersions(
  db: Runner,
  t: Tables,
): Pick<SecretRepository, 'listVersions' | 'listAllVersions' | 'scanVersionValues' | 'replaceVersionValues'> {
  return {
    async listVersions(environmentId, key, page) {
      const { rows } = await db.query<VersionRow>(
        `SELECT ${COLUMNS} FROM ${t.secretVersions}
         WHERE environment_id = $1 AND key = $2 AND ($3::int IS NULL OR version < $3)
         ORDER BY version DESC LIMIT $4`,
        [environmentId, key, page.beforeVersion ?? null, page.limit],
      );
      return rows.map(toVersion);
    },
    async listAllVersions(environmentId, page) {
      const { rows } = await db.query<VersionRow>(
        `SELECT ${COLUMNS} FROM ${t.secretVersions} WHERE environment_id = $1
           AND ($2::text IS NULL OR key COLLATE "C" > $2::text OR (key = $2::text AND version > $3::int))
         ORDER BY key COLLATE "C", version LIMIT $4::int`,
        [environmentId, page?.after?.key ?? null, page?.after?.version ?? null, page?.limit ?? null],
      );
      return rows.map(toVersion);
    },
    async scanVersionValues(after, limit) {
      const { rows } = await db.query<{
        environment_id: string;
        key: string;
        version: unknown;
        value: string;
      }>(
        `SELECT environment_id, key, version, value FROM ${t.secretVersions}
         WHERE value IS NOT NULL
           AND ($1::text IS NULL OR (environment_id, key, version) > ($1::text, $2::text, $3::int))
         ORDER BY environment_id, key, version LIMIT $4`,
        [after?.environmentId ?? null, after?.key ?? null, after?.version ?? null, limit],
      );
      return rows.map((r) => ({
        environmentId: r.environment_id,
        key: r.key,
        version: int(r.version),
        value: r.value,
      }));
    },
    async replaceVersionValues(changes) {
      if (changes.length === 0) return 0;
      const result = await db.query(
        `UPDATE ${t.secretVersions} AS v SET value = c.to_value
         FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[])
           AS c(environment_id, key, version, from_value, to_value)
         WHERE v.environment_id = c.environment_id AND v.key = c.key AND v.version = c.version
           AND v.value = c.from_value`,
        [
          changes.map((c) => c.environmentId),
          changes.map((c) => c.key),
          changes.map((c) => c.version),
          changes.map((c) => c.from),
          changes.map((c) => c.to),
        ],
      );
      return result.rowCount ?? 0;
    },
  };
}
