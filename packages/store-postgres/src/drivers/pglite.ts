/** The embedded driver: PGlite, PostgreSQL compiled to WebAssembly, in a data directory or in memory. */
import type { PGlite, PGliteOptions, Transaction } from '@electric-sql/pglite';
import type { SqlDriver, SqlQueryable, SqlResult } from '../driver.js';
import { hasMethods } from './has-methods.js';
import { withRetries } from './retry.js';
import { translated } from './translated.js';

/** Options of {@link pgliteDriver} when it opens the database. */
export interface PgliteDriverOptions {
  /** A directory for the data (created if missing), or `memory://` (the default) for none. */
  dataDir?: string;
  /** A statement running longer is cancelled and answered with 503. Default 5000 ms; 0 turns it off. */
  statementTimeoutMs?: number;
  /**
   * More PGlite options, applied last. PGlite's PostgreSQL keeps its default 128 MB of shared buffers,
   * which fill (and stay in the process's memory) as large tables are read; an application that
   * wants a smaller footprint passes `{ postgresqlconf: ['shared_buffers = 16MB'] }`.
   */
  pglite?: Omit<PGliteOptions, 'dataDir'>;
}

function wrap(db: PGlite | Transaction): SqlQueryable {
  return {
    query<Row>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>> {
      return translated(async () => {
        const result = await db.query<Row>(text, params as unknown[] | undefined);
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
      });
    },
  };
}

/**
 * A driver over PGlite. Given an instance, it uses it and `close()` leaves it open; given a data
 * directory (or nothing, for memory), it opens the database and `close()` closes it. PGlite has one
 * connection: transactions run one at a time, which is also what makes them safe here.
 */
export async function pgliteDriver(source: string | PGlite | PgliteDriverOptions = {}): Promise<SqlDriver> {
  let db: PGlite;
  let owned = false;
  if (hasMethods<PGlite>(source, 'query', 'transaction')) {
    db = source;
  } else {
    const options: PgliteDriverOptions = typeof source === 'string' ? { dataDir: source } : source;
    const { PGlite } = await import('@electric-sql/pglite');
    db = await PGlite.create(options.dataDir ?? 'memory://', options.pglite);
    const statementTimeout = options.statementTimeoutMs ?? 5_000;
    await db.query(`SET statement_timeout = ${Math.max(0, Math.floor(statementTimeout))}`);
    // PGlite writes its WAL in the process's own thread: zero-filling each new 16 MB segment held
    // every caller for 50-100 ms in the middle of large writes (a restore's), for no safety the
    // data directory's file system needs (it allocates on write).
    await db.query('SET wal_init_zero = off');
    owned = true;
  }
  const direct = wrap(db);
  return {
    name: 'pglite',
    serial: true,
    query: (text, params) => direct.query(text, params),
    transaction: (fn) => withRetries(() => translated(() => db.transaction((tx) => fn(wrap(tx))))),
    async listen(channel, onNotify) {
      const stop = await db.listen(channel, () => onNotify());
      return async () => {
        if (!db.closed) await stop();
      };
    },
    async close() {
      if (owned && !db.closed) await db.close();
    },
  };
}
