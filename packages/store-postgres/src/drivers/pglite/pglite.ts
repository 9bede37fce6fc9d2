/** The embedded driver: PGlite, PostgreSQL compiled to WebAssembly, in a data directory or in memory. */
import { rm } from 'node:fs/promises';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import type { SqlDriver, SqlQueryable } from '../../driver.js';
import { createFromTemplate } from '../../pglite-template.js';
import { hasMethods } from '../has-methods.js';
import { withRetries } from '../retry.js';
import { translated } from '../translated.js';
import { applyWasmCompiler, type PgliteWasmCompiler } from './compiler.js';
import { memoryStartParams, type PgliteMemorySettings } from './memory.js';
import { type PgliteWire, pgliteWire } from './wire.js';

/** Options of {@link pgliteDriver} when it opens the database. */
export interface PgliteDriverOptions {
  /** A directory for the data (created if missing), or `memory://` (the default) for none. */
  dataDir?: string;
  /** A statement running longer is cancelled and answered with 503. Default 5000 ms; 0 turns it off. */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL's memory settings (shared buffers, work memory…), by default sized for an embedded
   * store (16 MB of shared buffers rather than PostgreSQL's 128 MB): see {@link PgliteMemorySettings}.
   * Passed as server arguments; `pglite.startParams`, when given, replaces them with PGlite's own.
   */
  memory?: PgliteMemorySettings;
  /**
   * How V8 compiles PGlite's WebAssembly: `liftoff` (the default), its baseline compiler only,
   * about 100 MB less at the peak of the start; `optimizing`, V8's own tiering. A process-wide V8
   * flag, set before PGlite compiles (see `drivers/pglite/compiler.ts`).
   */
  wasmCompiler?: PgliteWasmCompiler;
  /**
   * A new data directory (missing or empty) starts from the empty database this package ships,
   * instead of PGlite running initdb in the process, which held 650-750 MB while it ran. Default
   * true; with false, or where the archive cannot be opened by the installed PGlite, initdb runs.
   */
  template?: boolean;
  /** More PGlite options, applied last. */
  pglite?: Omit<PGliteOptions, 'dataDir'>;
}

/** The PGlite driver: a {@link SqlDriver}, and what its engine holds in memory. */
export interface PgliteSqlDriver extends SqlDriver {
  /**
   * The size of PGlite's WebAssembly heap in bytes: what it has grown to (it never shrinks), of
   * which the process holds the pages PostgreSQL has touched. 0 once closed.
   */
  wasmHeapBytes(): number;
}

/**
 * Opens PGlite with the memory settings, a new data directory first written from the template. A
 * template the installed PGlite cannot start (another PostgreSQL version) is removed and initdb
 * runs after all.
 */
async function openPglite(options: PgliteDriverOptions): Promise<PGlite> {
  applyWasmCompiler(options.wasmCompiler);
  const { PGlite } = await import('@electric-sql/pglite');
  const dataDir = options.dataDir ?? 'memory://';
  const pglite: PGliteOptions = {
    startParams: [...PGlite.defaultStartParams, ...memoryStartParams(options.memory)],
    ...options.pglite,
  };
  const created = options.template !== false && (await createFromTemplate(dataDir));
  try {
    return await PGlite.create(dataDir, pglite);
  } catch (error) {
    if (!created) throw error;
    await rm(dataDir, { recursive: true, force: true });
    return PGlite.create(dataDir, pglite);
  }
}

/** `q` with its failures translated. */
function wrap(q: SqlQueryable): SqlQueryable {
  return {
    query: (text, params) => translated(() => q.query(text, params)),
    ...(q.defer ? { defer: q.defer } : {}),
  };
}

/**
 * A snapshot on the one connection: everything `fn` yields is read inside one transaction before
 * the first item goes out, so a consumer that reads slowly never holds the engine (and so every
 * other caller); the cost is the whole of it in memory for as long as it is read.
 */
async function* bufferedSnapshot<T>(
  wire: PgliteWire,
  fn: (tx: SqlQueryable) => AsyncIterable<T>,
): AsyncGenerator<T> {
  const items = await translated(() =>
    wire.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const read: T[] = [];
      for await (const item of fn(wrap(tx))) read.push(item);
      return read;
    }),
  );
  yield* items;
}

/**
 * A driver over PGlite. Given an instance, it uses it and `close()` leaves it open; given a data
 * directory (or nothing, for memory), it opens the database and `close()` closes it. PGlite has one
 * connection: transactions run one at a time, which is also what makes them safe here.
 */
export async function pgliteDriver(
  source: string | PGlite | PgliteDriverOptions = {},
): Promise<PgliteSqlDriver> {
  let db: PGlite;
  let owned = false;
  if (hasMethods<PGlite>(source, 'query', 'transaction')) {
    db = source;
  } else {
    const options: PgliteDriverOptions = typeof source === 'string' ? { dataDir: source } : source;
    db = await openPglite(options);
    const statementTimeout = options.statementTimeoutMs ?? 5_000;
    await db.query(`SET statement_timeout = ${Math.max(0, Math.floor(statementTimeout))}`);
    // PGlite writes its WAL in the process's own thread: zero-filling each new 16 MB segment held
    // every caller for 50-100 ms in the middle of large writes (a restore's), for no safety the
    // data directory's file system needs (it allocates on write).
    await db.query('SET wal_init_zero = off');
    owned = true;
  }
  const wire = pgliteWire(db, await import('@electric-sql/pglite'));
  return {
    name: 'pglite',
    wasmHeapBytes: () =>
      (db as unknown as { Module?: { HEAPU8?: Uint8Array } }).Module?.HEAPU8?.byteLength ?? 0,
    serial: true,
    query: (text, params) => translated(() => wire.query(text, params)),
    transaction: (fn) => withRetries(() => translated(() => wire.transaction((tx) => fn(wrap(tx))))),
    snapshot: (fn) => bufferedSnapshot(wire, fn),
    async listen(channel, onNotify) {
      const stop = await db.listen(channel, () => onNotify());
      return async () => {
        if (!db.closed) await stop();
      };
    },
    async close() {
      if (db.closed) return;
      if (owned) await db.close();
      else await wire.release();
    },
  };
}
