/**
 * What a database failure means for the caller: the database cannot serve right now (503 with
 * Retry-After, from `serviceUnavailable` of `@latchkey/core`), the transaction lost a race the
 * database detected (run it again), or a bug (rethrown as it is, for a 500).
 */
import { isLatchkeyError, serviceUnavailable } from '@latchkey/core';

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
 * The error to throw for a failed query: `service_unavailable` for "not now", otherwise the error
 * itself, without the query parameters a driver may have attached (they can hold secret values).
 */
export function translate(error: unknown): unknown {
  if (isLatchkeyError(error)) return error;
  if (isUnavailable(error)) return serviceUnavailable(scrub(error), 1);
  return scrub(error);
}

/** Removes the fields of a driver error that can carry parameter values. */
export function scrub(error: unknown): unknown {
  if (typeof error === 'object' && error !== null) {
    for (const field of ['params', 'parameters', 'values']) {
      if (field in error) delete (error as Record<string, unknown>)[field];
    }
  }
  return error;
}
