/**
 * Applies the bundled migrations at start-up, in one transaction under an advisory lock on the
 * schema: two instances starting together take turns, and the second finds nothing left to do.
 */
import type { SqlDriver } from './driver.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import type { Tables } from './schema-name.js';

/** What {@link migrate} did. */
export interface MigrationReport {
  /** Ids applied by this call, in order. */
  applied: number[];
  /** The schema's version afterwards. */
  version: number;
}

/** Brings the schema up to the newest migration; refuses a schema newer than this code. */
export async function migrate(
  driver: SqlDriver,
  tables: Tables,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  return driver.transaction(async (tx) => {
    // Held until this transaction ends; hashtext maps the schema's name to the lock's key.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`latchkey:migrate:${tables.schema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${tables.quoted}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${tables.migrations} (
        id integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const done = new Set(
      (await tx.query<{ id: number }>(`SELECT id FROM ${tables.migrations}`)).rows.map((r) => Number(r.id)),
    );
    const newest = migrations.at(-1)?.id ?? 0;
    const ahead = [...done].filter((id) => id > newest);
    if (ahead.length > 0) {
      throw new Error(
        `schema "${tables.schema}" has migration ${Math.max(...ahead)}, newer than this version of @latchkey/store-postgres knows (${newest}); upgrade the package`,
      );
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      for (const statement of migration.statements(tables)) await tx.query(statement);
      await tx.query(`INSERT INTO ${tables.migrations} (id, name) VALUES ($1, $2)`, [
        migration.id,
        migration.name,
      ]);
      applied.push(migration.id);
    }
    return { applied, version: newest };
  });
}

/**
 * The newest migration applied to the schema (0 when it has none yet, or no migrations table), and
 * the newest this code knows: one read, for `core.ready()`.
 */
export async function schemaVersion(
  driver: Pick<SqlDriver, 'query'>,
  tables: Tables,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<{ version: number; expected: number }> {
  const expected = migrations.at(-1)?.id ?? 0;
  const found = await driver.query<{ version: number | null }>(
    'SELECT CASE WHEN to_regclass($1) IS NULL THEN NULL ELSE 1 END AS version',
    [tables.migrations],
  );
  if (found.rows[0]?.version == null) return { version: 0, expected };
  const newest = await driver.query<{ version: number | null }>(
    `SELECT max(id) AS version FROM ${tables.migrations}`,
  );
  return { version: Number(newest.rows[0]?.version ?? 0), expected };
}
