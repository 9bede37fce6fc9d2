/**
 * The store an example server runs on, from `LATCHKEY_STORE`: `memory` (the default), a
 * `postgres://` URL (a PostgreSQL server), or a directory (embedded PGlite, created if missing;
 * the data survives restarts).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createMemoryStore, type LatchkeyStore } from '@latchkey/core';
import { createPostgresStore, pgDriver, pgliteDriver } from '@latchkey/store-postgres';

/** A store, and how to name it to the person running the example (never with a password). */
export interface ExampleStore {
  store: LatchkeyStore;
  label: string;
  /** The PGlite data directory, or null for the other stores. */
  directory: string | null;
}

/** Where a `postgres://` URL points, without its credentials. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return 'the given URL';
  }
}

/** Opens the store `spec` names, or throws an Error whose message says what is accepted. */
export async function openExampleStore(spec: string): Promise<ExampleStore> {
  if (spec === 'memory') return { store: createMemoryStore(), label: 'in-memory store', directory: null };
  if (/^postgres(ql)?:\/\//i.test(spec)) {
    const store = await createPostgresStore({ driver: await pgDriver(spec) });
    return { store, label: `PostgreSQL at ${describeUrl(spec)}`, directory: null };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec) || spec.trim() === '') {
    throw new Error(
      `LATCHKEY_STORE="${spec}" is not supported: use "memory", a postgres:// URL, or a directory for embedded PGlite.`,
    );
  }
  const dir = resolve(spec);
  mkdirSync(dir, { recursive: true });
  const store = await createPostgresStore({ driver: await pgliteDriver(dir) });
  return { store, label: `PGlite in ${dir}`, directory: dir };
}
