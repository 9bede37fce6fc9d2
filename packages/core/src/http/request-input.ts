/**
 * Reading a request's input: path segments, query, body bytes as JSON, and validation against the
 * route's zod schemas. Every refusal is a {@link LatchkeyError} the route documents (400, 415).
 */
import type { z } from 'zod';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { type CoreRequest, headerValue, pathOf } from '../model/core-request.js';
import { isReadableJson } from './media-type.js';
import type { AnyRoute } from './router.js';
import { paramSchemas, zodDetails } from './validation.js';

/** Splits a request URL into decoded path segments and the raw query string (without `?`). */
export function splitUrl(target: string): { segments: string[]; rawQuery: string | undefined } {
  const url = pathOf(target);
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const segments: string[] = [];
  try {
    for (const raw of path.split('/')) if (raw !== '') segments.push(decodeURIComponent(raw));
  } catch {
    throw new LatchkeyError('invalid_request', 'The path is not valid percent-encoding.');
  }
  return { segments, rawQuery: q === -1 ? undefined : url.slice(q + 1) };
}

/**
 * The query parameters, each given at most once. Read only for routes that take input, so a public
 * route (the OpenAPI document) never refuses a cache-busting query.
 */
export function parseQuery(rawQuery: string | undefined): Record<string, string> {
  const query: Record<string, string> = {};
  if (rawQuery === undefined) return query;
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decodeQueryPart(eq === -1 ? pair : pair.slice(0, eq));
    if (key in query)
      throw new LatchkeyError('invalid_request', `Query parameter ${key} is given more than once.`);
    query[key] = decodeQueryPart(eq === -1 ? '' : pair.slice(eq + 1));
  }
  return query;
}

/**
 * One name or value of a query, as form encoding writes it (`+` for a space). `URLSearchParams`
 * would turn bytes that are not UTF-8 into U+FFFD without a word; here they are a 400, as in a path.
 */
function decodeQueryPart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw new LatchkeyError('invalid_request', 'The query is not valid percent-encoded UTF-8.');
  }
}

/** Size in bytes of a request body. */
export function bodySize(body: CoreRequest['body']): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The body as JSON, or undefined when empty; routes without input accept only `{}`. */
export function parseBody(request: CoreRequest, route: AnyRoute): unknown {
  const raw = request.body;
  const empty = raw === undefined || (typeof raw === 'string' ? raw.length === 0 : raw.byteLength === 0);
  if (empty) {
    if (route.body) throw new LatchkeyError('invalid_request', 'A JSON request body is required.');
    return undefined;
  }
  const type = headerValue(request.headers, 'content-type');
  if (type !== undefined && !isReadableJson(type)) {
    throw new LatchkeyError(
      'unsupported_media_type',
      'Send the body as application/json, in UTF-8 (no charset, or charset=utf-8).',
    );
  }
  let text: string;
  try {
    text = typeof raw === 'string' ? raw : decoder.decode(raw);
  } catch {
    throw new LatchkeyError('invalid_request', 'The body is not valid UTF-8.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LatchkeyError('invalid_request', 'The body is not valid JSON.');
  }
  if (!route.body) {
    // Routes without input accept nothing but an empty object, so a typo never passes silently.
    if (
      typeof value !== 'object' ||
      value === null ||
      Array.isArray(value) ||
      Object.keys(value).length > 0
    ) {
      throw new LatchkeyError('invalid_request', 'This operation takes no request body.');
    }
  }
  return value;
}

/** Validates input against a schema; a failure is a 400 with `details`. */
export function validate<T>(schema: z.ZodType<T>, value: unknown, where: 'body' | 'query'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new LatchkeyError('invalid_request', `The request ${where} is not valid.`, {
    details: zodDetails(result.error, where),
  });
}

/** A route without a query schema takes no query parameters. */
export function rejectUnknownQuery(query: Record<string, string>): undefined {
  const keys = Object.keys(query);
  if (keys.length > 0) {
    throw new LatchkeyError('invalid_request', 'The request query is not valid.', {
      details: keys.map((key) => ({ path: `query.${key}`, message: 'unknown query parameter' })),
    });
  }
  return undefined;
}

/** Checks path parameters against their schemas (ids, slugs). */
export function validateParams(params: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(params)) {
    const result = paramSchemas[name]?.safeParse(value);
    if (result && !result.success) {
      throw new LatchkeyError('invalid_request', `The path parameter ${name} is not valid.`, {
        details: zodDetails(result.error, `path.${name}`),
      });
    }
  }
  return params;
}
