/** Migrations: applied once, recorded, idempotent, safe when instances start together, refused when newer than the code. */
import { createCore } from '@latchkey/core';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStore, MIGRATIONS, type SqlDriver } from '../src/index.js';
import { pgDriver } from '../src/pg.js';
import { DATABASE_URL, dropSchema, freshSchema, postgresUnavailable } from './databases.js';
import { freshPglite } from './fresh-pglite.js';
import { runScript } from './processes/spawn.js';

const newest = MIGRATIONS.at(-1)!.id;
// Migration numbers are handed out ahead of merging, so they may have gaps: "one behind" is the one before.
const previous = MIGRATIONS.at(-2)!.id;

describe('migrations on PGlite', () => {
  it('applies every migration once, records it, and finds nothing to do the second time', async () => {
    const driver = await freshPglite();
    const first = await createPostgresStore({ driver, schema: 'tenant_a' });
    expect(first.migrations).toEqual({ applied: MIGRATIONS.map((m) => m.id), version: newest });
    const again = await createPostgresStore({ driver, schema: 'tenant_a' });
    expect(again.migrations).toEqual({ applied: [], version: newest });
    const { rows } = await driver.query<{ id: number; name: string }>(
      'SELECT id, name FROM tenant_a.latchkey_migrations ORDER BY id',
    );
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ id: m.id, name: m.name })));
    // Another schema in the same database is another, independent store.
    const other = await createPostgresStore({ driver, schema: 'tenant_b' });
    expect(other.migrations?.applied).toEqual(MIGRATIONS.map((m) => m.id));
    await driver.close();
  });

  it('refuses a schema migrated by a newer version of the package', async () => {
    const driver = await freshPglite();
    await createPostgresStore({ driver });
    await driver.query(`INSERT INTO latchkey.latchkey_migrations (id, name) VALUES ($1, 'from the future')`, [
      newest + 1,
    ]);
    await expect(createPostgresStore({ driver })).rejects.toThrow(/newer than this version/);
    await driver.close();
  });

  it('reports the schema version for readiness: current, behind and not yet created', async () => {
    const driver = await freshPglite();
    const store = await createPostgresStore({ driver, schema: 'ready_a' });
    expect(await store.status!()).toEqual({ migrations: { version: newest, expected: newest } });
    await driver.query('DELETE FROM ready_a.latchkey_migrations WHERE id = $1', [newest]);
    expect(await store.status!()).toEqual({ migrations: { version: previous, expected: newest } });
    const unmigrated = await createPostgresStore({ driver, schema: 'ready_b', migrate: false });
    expect(await unmigrated.status!()).toEqual({ migrations: { version: 0, expected: newest } });
    const core = createCore({ store: unmigrated });
    expect(await core.ready()).toMatchObject({
      status: 'unavailable',
      checks: { store: { status: 'ok' }, migrations: { status: 'fail', version: 0, expected: newest } },
    });
    await driver.close();
  });

  it('refuses a schema name that is not a plain identifier, before any query', async () => {
    const untouched: SqlDriver = {
      name: 'untouched',
      query: () => Promise.reject(new Error('no query may run')),
      transaction: () => Promise.reject(new Error('no transaction may run')),
      close: async () => {},
    };
    for (const schema of ['Latchkey', 'a"; DROP TABLE x; --', '', '1abc', 'x'.repeat(64)]) {
      await expect(createPostgresStore({ driver: untouched, schema })).rejects.toThrow(/schema must be/);
    }
  });
});

// Skipped only off CI when no PostgreSQL answers (databases.ts prints why; in CI that is a failure).
describe.skipIf(postgresUnavailable !== null)(
  'two processes migrating one fresh database (real PostgreSQL)',
  () => {
    const schemas: string[] = [];
    afterAll(async () => {
      for (const schema of schemas) await dropSchema(schema);
    });

    it('both start, and the schema is applied once', async () => {
      for (let round = 0; round < 3; round++) {
        const schema = freshSchema();
        schemas.push(schema);
        const startAt = String(Date.now() + 1_500);
        const reports = (
          await Promise.all(
            [0, 1].map(() => runScript('migrator', { DATABASE_URL, SCHEMA: schema, START_AT: startAt })),
          )
        ).map((out) => JSON.parse(out) as { applied: number[]; version: number });
        expect(reports.map((r) => r.applied.length).sort()).toEqual([0, MIGRATIONS.length]);
        expect(reports.every((r) => r.version === newest)).toBe(true);
        const client = new pg.Client({ connectionString: DATABASE_URL });
        await client.connect();
        const { rows } = await client.query(`SELECT id FROM "${schema}".latchkey_migrations ORDER BY id`);
        await client.end();
        expect(rows.map((r) => r.id)).toEqual(MIGRATIONS.map((m) => m.id));
      }
    }, 120_000);

    it('a store opened with migrate: false on a migrated schema works', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const migrated = await createPostgresStore({ driver: await pgDriver(DATABASE_URL), schema });
      await migrated.close();
      const store = await createPostgresStore({
        driver: await pgDriver(DATABASE_URL),
        schema,
        migrate: false,
      });
      expect(store.migrations).toBeNull();
      expect(await store.organizations.getBySlug('acme')).toBeNull();
      await store.close();
    });
  },
);
