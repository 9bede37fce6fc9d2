/**
 * The databases the tests run on: PGlite in memory, and the real PostgreSQL at `DATABASE_URL`
 * (default: the local server). Each store gets a schema of its own, dropped at the end. Without
 * a reachable PostgreSQL the real-database tests are skipped locally, with the reason printed;
 * with `CI=true` they fail instead.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../src/index.js';
import { pgDriver } from '../src/pg.js';
import { freshPglite } from './fresh-pglite.js';

export const DATABASE_URL = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema name, unique per call. */
export const freshSchema = (prefix = 'lk_test') => `${prefix}_${randomBytes(6).toString('hex')}`;

async function reachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const problem = await reachable();
if (problem && process.env['CI'] === 'true') {
  throw new Error(`PostgreSQL at DATABASE_URL is required in CI and is not reachable: ${problem}`);
}
if (problem) {
  console.warn(`Skipping the real-PostgreSQL tests: ${DATABASE_URL} is not reachable (${problem}).`);
}

/** Why the real-PostgreSQL tests cannot run here, or null when they can. */
export const postgresUnavailable: string | null = problem;

/**
 * Registers a suite that needs the real PostgreSQL. Off CI, when none answers, one skipped test
 * stands in for it, named with the reason (in CI this module has already failed the run).
 */
export function onPostgres(title: string, register: () => void): void {
  if (postgresUnavailable === null) {
    register();
    return;
  }
  describe(title, () => {
    // Skipped only off CI when no PostgreSQL answers; the title says why.
    it.skip(`needs PostgreSQL at DATABASE_URL: ${postgresUnavailable}`, () => {});
  });
}

/** Drops a schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * A store on the real PostgreSQL, in a schema of its own that `close()` drops; at `url` (PgBouncer's,
 * with `pooler`) when given.
 */
export async function postgresStore(
  options: { max?: number; schema?: string; url?: string; pooler?: 'transaction' } = {},
): Promise<PostgresStore> {
  const schema = options.schema ?? freshSchema();
  const driver = await pgDriver({
    connectionString: options.url ?? DATABASE_URL,
    max: options.max ?? 10,
    ...(options.pooler ? { pooler: options.pooler } : {}),
  });
  const store = await createPostgresStore({ driver, schema });
  return {
    ...store,
    async close() {
      await store.close();
      await dropSchema(schema);
    },
  };
}

/** A store on PGlite in memory. */
export async function pgliteStore(): Promise<PostgresStore> {
  return createPostgresStore({ driver: await freshPglite() });
}
