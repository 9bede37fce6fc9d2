/**
 * `@latchkey/store-postgres/pg`: the driver on a PostgreSQL server, through node-postgres. Its own
 * entry point, so an application on PGlite neither loads `pg` nor type-checks against `@types/pg`.
 *
 * ```ts
 * import { createPostgresStore } from '@latchkey/store-postgres';
 * import { pgDriver } from '@latchkey/store-postgres/pg';
 *
 * const store = await createPostgresStore({ driver: await pgDriver(process.env.DATABASE_URL!) });
 * ```
 */
export { type PgDriverOptions, pgDriver } from './drivers/pg/pg.js';
