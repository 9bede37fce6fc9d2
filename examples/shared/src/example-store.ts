/**
 * The store an example server runs on, from `LATCHKEY_STORE`: `memory` (the default), a
 * `postgres://` URL (a PostgreSQL server), or a directory (embedded PGlite, created if missing;
 * the data survives restarts). Behind PgBouncer in transaction mode, set
 * `LATCHKEY_STORE_POOLER=transaction` and, for LISTEN, `LATCHKEY_STORE_LISTEN_URL` (a direct
 * `postgres://` URL); without it delivery engines poll. On PGlite, `LATCHKEY_PGLITE_SHARED_BUFFERS`,
 * `…_WORK_MEM`, `…_MAINTENANCE_WORK_MEM`, `…_TEMP_BUFFERS` and `…_WAL_BUFFERS` override the
 * driver's memory settings (sizes such as `16MB`), and `LATCHKEY_PGLITE_WASM_COMPILER` its
 * `wasmCompiler` (`liftoff`, the default, or `optimizing`).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createMemoryStore, type LatchkeyStore } from '@latchkey/core';
import { createPostgresStore } from '@latchkey/store-postgres';
import { type PgDriverOptions, pgDriver } from '@latchkey/store-postgres/pg';
import {
  type PgliteMemorySettings,
  type PgliteWasmCompiler,
  pgliteDriver,
} from '@latchkey/store-postgres/pglite';

/** A store, and how to name it to the person running the example (never with a password). */
export interface ExampleStore {
  store: LatchkeyStore;
  label: string;
  /** The PGlite data directory, or null for the other stores. */
  directory: string | null;
  /** The size of PGlite's WebAssembly heap, on PGlite. */
  wasmHeapBytes?: () => number;
}

/** The environment variable of each PGlite memory setting (see the examples' README). */
const PGLITE_MEMORY_ENV: Record<keyof PgliteMemorySettings, string> = {
  sharedBuffers: 'LATCHKEY_PGLITE_SHARED_BUFFERS',
  workMem: 'LATCHKEY_PGLITE_WORK_MEM',
  maintenanceWorkMem: 'LATCHKEY_PGLITE_MAINTENANCE_WORK_MEM',
  tempBuffers: 'LATCHKEY_PGLITE_TEMP_BUFFERS',
  walBuffers: 'LATCHKEY_PGLITE_WAL_BUFFERS',
};

/** The PGlite memory settings the environment overrides (the driver's defaults for the rest). */
function pgliteMemory(): PgliteMemorySettings {
  const settings: PgliteMemorySettings = {};
  for (const [option, name] of Object.entries(PGLITE_MEMORY_ENV) as [keyof PgliteMemorySettings, string][]) {
    const value = process.env[name];
    if (value) settings[option] = value;
  }
  return settings;
}

/** Opens PGlite in `dir`; a setting the driver refuses is named by its environment variable. */
async function openPglite(dir: string) {
  const compiler = process.env['LATCHKEY_PGLITE_WASM_COMPILER'];
  try {
    return await pgliteDriver({
      dataDir: dir,
      memory: pgliteMemory(),
      ...(compiler ? { wasmCompiler: compiler as PgliteWasmCompiler } : {}),
    });
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith('wasmCompiler ')) {
      throw new Error(`LATCHKEY_PGLITE_WASM_COMPILER ${message.slice('wasmCompiler '.length)}`);
    }
    const option = /^memory\.(\w+) (.*)$/s.exec(message);
    const name = option && PGLITE_MEMORY_ENV[option[1] as keyof PgliteMemorySettings];
    throw name ? new Error(`${name} ${option[2]}`) : error;
  }
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

/** The driver options of a `postgres://` store, with the pooler settings of the environment. */
function postgresOptions(connectionString: string): PgDriverOptions {
  const pooler = process.env['LATCHKEY_STORE_POOLER'] || '';
  if (pooler !== '' && pooler !== 'transaction') {
    throw new Error(
      `LATCHKEY_STORE_POOLER="${pooler}" is not supported: use "transaction" (PgBouncer's pool_mode) or leave it unset.`,
    );
  }
  const listenUrl = process.env['LATCHKEY_STORE_LISTEN_URL'] || '';
  return {
    connectionString,
    ...(pooler === 'transaction' ? { pooler } : {}),
    ...(listenUrl ? { listenUrl } : {}),
  };
}

/** Opens the store `spec` names, or throws an Error whose message says what is accepted. */
export async function openExampleStore(spec: string): Promise<ExampleStore> {
  if (spec === 'memory') return { store: createMemoryStore(), label: 'in-memory store', directory: null };
  if (/^postgres(ql)?:\/\//i.test(spec)) {
    const store = await createPostgresStore({ driver: await pgDriver(postgresOptions(spec)) });
    return { store, label: `PostgreSQL at ${describeUrl(spec)}`, directory: null };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec) || spec.trim() === '') {
    throw new Error(
      `LATCHKEY_STORE="${spec}" is not supported: use "memory", a postgres:// URL, or a directory for embedded PGlite.`,
    );
  }
  const dir = resolve(spec);
  mkdirSync(dir, { recursive: true });
  const driver = await openPglite(dir);
  const store = await createPostgresStore({ driver });
  return { store, label: `PGlite in ${dir}`, directory: dir, wasmHeapBytes: driver.wasmHeapBytes };
}
