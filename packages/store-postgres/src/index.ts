/**
 * `@latchkey/store-postgres`: Latchkey's store on PostgreSQL (node-postgres) or embedded PGlite.
 * The drivers have entry points of their own (`@latchkey/store-postgres/pg`, `/pglite`): this one
 * names neither driver's package, so an application installs, loads and type-checks only its own.
 *
 * ```ts
 * import { pgDriver } from '@latchkey/store-postgres/pg';
 *
 * const store = await createPostgresStore({ driver: await pgDriver(process.env.DATABASE_URL!) });
 * const core = createCore({ store });
 * ```
 */
export type { SqlDriver, SqlQueryable, SqlResult } from './driver.js';
export { StoreQueryError } from './failures.js';
export { type MigrationReport, migrate } from './migrate.js';
export { MIGRATIONS, type Migration } from './migrations/index.js';
export { tablesOf } from './schema-name.js';
export { createPostgresStore, type PostgresStore, type PostgresStoreOptions } from './store.js';
export { type BackfillReport, backfillTrees } from './tree-backfill.js';
