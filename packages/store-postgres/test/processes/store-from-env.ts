/**
 * The store a helper process opens: PostgreSQL at DATABASE_URL in SCHEMA (through a transaction-mode
 * pooler when POOLER=transaction), or PGlite in PGLITE_DIR.
 */
import { createPostgresStore, type PostgresStore } from '../../src/index.js';
import { pgDriver } from '../../src/pg.js';
import { pgliteDriver } from '../../src/pglite.js';

export async function storeFromEnv(): Promise<PostgresStore> {
  const env = process.env;
  if (env['PGLITE_DIR']) return createPostgresStore({ driver: await pgliteDriver(env['PGLITE_DIR']) });
  const driver = await pgDriver({
    connectionString: env['DATABASE_URL']!,
    max: 4,
    ...(env['POOLER'] === 'transaction' ? { pooler: 'transaction' as const } : {}),
  });
  return createPostgresStore({ driver, schema: env['SCHEMA']! });
}
