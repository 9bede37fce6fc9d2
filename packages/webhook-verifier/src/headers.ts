import { WebhookVerificationError } from './errors.js';

/** A header value as frameworks hand it over. */
export type HeaderValue = string | readonly string[] | undefined;

/**
 * Request headers in any of the shapes receivers have at hand: a WHATWG `Headers` (fetch, Hono,
 * Workers), Node's `IncomingHttpHeaders` (lowercase names), or a plain object with names in any case.
 */
export type HeadersInput =
  | { get(name: string): string | null }
  | Readonly<Record<string, HeaderValue | number>>;

/**
 * Reads one header. `lower` must be the lowercase name. Returns `undefined` when absent or empty.
 * Several values for one header are ambiguous and reported as `malformedCode`.
 */
export function readHeader(
  headers: HeadersInput | null | undefined,
  lower: string,
  malformedCode: 'malformed_signature' | 'malformed_timestamp',
): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  let value: unknown;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    value = (headers as { get(name: string): string | null }).get(lower);
  } else {
    const record = headers as Record<string, unknown>;
    // Node's IncomingHttpHeaders hits here at once; other casings need the scan below.
    value = record[lower];
    if (value === undefined) {
      for (const key in record) {
        if (key.length === lower.length && key.toLowerCase() === lower) {
          value = record[key];
          break;
        }
      }
    }
  }
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    if (value.length === 1 && typeof value[0] === 'string') return value[0] === '' ? undefined : value[0];
  }
  throw new WebhookVerificationError(malformedCode, `header ${lower} must have exactly one string value`);
}
