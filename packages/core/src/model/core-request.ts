/**
 * The request and response types of the one HTTP seam, `core.handle`. They are plain objects rather
 * than WHATWG `Request`/`Response` so that Node adapters (Express, Fastify) pay for no conversion.
 */

/** Header values as Node gives them: names in lower case. */
export type CoreHeaders = Record<string, string | string[] | undefined>;

/** What an adapter hands to `core.handle`. */
export interface CoreRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Path and optional query string, e.g. `/api/v2/organizations/acme/projects?x=1`. */
  url: string;
  /** Request headers, names in lower case. */
  headers: CoreHeaders;
  /** The raw body bytes exactly as received, or `undefined` when there is none. */
  body?: Uint8Array | string | undefined;
}

/** What `core.handle` answers. The body is already serialised. */
export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | AsyncIterable<string | Uint8Array> | null;
}

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The path and query of a request target. HTTP/1.1 servers must accept the absolute form
 * (`GET http://host/api/v2/x HTTP/1.1`, RFC 9112 section 3.2.2); routing looks at its path only, so a
 * proxy-style target reaches the same route (and the same checks) as the origin form.
 */
export function pathOf(url: string): string {
  if (url.charCodeAt(0) === 47 /* '/' */) return url;
  const match = ABSOLUTE_FORM.exec(url);
  if (!match) return url;
  const rest = url.slice(match[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Reads one header as a single string (first value when repeated). */
export function headerValue(headers: CoreHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** A JSON response with the headers every API answer carries. */
export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): CoreResponse {
  return {
    status,
    headers: headers ? { ...JSON_HEADERS, ...headers } : { ...JSON_HEADERS },
    body: JSON.stringify(body),
  };
}
