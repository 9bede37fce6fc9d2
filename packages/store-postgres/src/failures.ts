/**
 * What a database failure means for the caller: the database cannot serve right now (503 with
 * Retry-After, from `serviceUnavailable` of `@latchkey/core`), the transaction lost a race the
 * database detected (run it again), or a bug (rethrown as it is, for a 500).
 */
import { isLatchkeyError, serviceUnavailable } from '@latchkey/core/store';

// SQLSTATE classes and codes that say "not now" rather than "never": connection exceptions (08),
// insufficient resources (53), operator intervention (57: shutdowns, query_canceled by
// statement_timeout), lock_not_available (55P03, lock_timeout).
const UNAVAILABLE_CLASSES = ['08', '53'];
const UNAVAILABLE_CODES = new Set(['57014', '57P01', '57P02', '57P03', '57P04', '55P03']);
// Network errors of Node's sockets.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
// node-postgres reports an exhausted pool and dropped connections with plain messages.
const UNAVAILABLE_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Connection terminated/i,
  /Client has encountered a connection error/i,
  /Cannot use a pool after calling end/i,
  /connection timeout/i,
];

const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : '';

/** True when the database could not serve the query now, though it may a moment later. */
export function isUnavailable(error: unknown): boolean {
  if (isLatchkeyError(error)) return error.code === 'service_unavailable';
  const code = codeOf(error);
  if (UNAVAILABLE_CODES.has(code) || NETWORK_CODES.has(code)) return true;
  if (code.length === 5 && UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return true;
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  const message = error instanceof Error ? error.message : '';
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/** True when the database aborted the transaction to break a deadlock or a serialization conflict. */
export function isRetryable(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40P01' || code === '40001';
}

/**
 * A query the database refused. PostgreSQL's own message may quote the input (a value that failed a
 * cast, a key in a constraint's detail), and inputs can be secret values or token hashes, so the
 * message names only the SQLSTATE and the table, column or constraint concerned.
 */
export class StoreQueryError extends Error {
  readonly code: string;
  readonly table: string | undefined;
  readonly column: string | undefined;
  readonly constraint: string | undefined;

  constructor(source: { code: string; table?: unknown; column?: unknown; constraint?: unknown }) {
    const name = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
    const table = name(source.table);
    const column = name(source.column);
    const constraint = name(source.constraint);
    const where = [
      table && `table ${table}`,
      column && `column ${column}`,
      constraint && `constraint ${constraint}`,
    ].filter(Boolean);
    super(
      `The database refused a query (SQLSTATE ${source.code}${where.length ? `; ${where.join(', ')}` : ''}).`,
    );
    this.name = 'StoreQueryError';
    this.code = source.code;
    this.table = table;
    this.column = column;
    this.constraint = constraint;
  }
}

/**
 * The error to throw for a failed query: `service_unavailable` for "not now", a
 * {@link StoreQueryError} for anything else the database reported, and other errors (the caller's
 * own, thrown inside a transaction) as they are.
 */
export function translate(error: unknown): unknown {
  if (isLatchkeyError(error) || error instanceof StoreQueryError) return error;
  if (isUnavailable(error)) return serviceUnavailable(scrub(error), 1);
  return scrub(error);
}

/** A database error stripped of everything that can quote input; any other error unchanged. */
function scrub(error: unknown): unknown {
  const code = codeOf(error);
  if (/^[0-9A-Z]{5}$/.test(code) && !isUnavailable(error)) {
    return new StoreQueryError(error as { code: string });
  }
  if (typeof error === 'object' && error !== null) {
    for (const field of ['params', 'parameters', 'values', 'detail']) {
      if (field in error) delete (error as Record<string, unknown>)[field];
    }
  }
  return error;
}
