/**
 * @hono/node-server builds a web `Request` from Node's request before any Hono app runs, and refuses
 * some targets itself (a Host header that does not match the URL it would build, a missing Host, a
 * backslash in the path, a malformed absolute URL) with an empty 400. Its `getRequestListener` takes
 * an `errorHandler` for exactly these; `serve()` does not pass one through.
 */
import { internalErrorBody, LatchkeyError } from '@latchkey/core';

/**
 * An `errorHandler` for @hono/node-server's `getRequestListener` that answers its refusals with
 * Latchkey's documented error body (400 `invalid_request`), and anything else that escaped the app
 * with a 500 `internal_error` that says nothing more:
 *
 * ```ts
 * createServer(getRequestListener(app.fetch, { errorHandler: latchkeyRequestErrors }))
 * ```
 */
export function latchkeyRequestErrors(error: unknown): Response {
  const refused = error instanceof Error && error.name === 'RequestError';
  const body = refused
    ? new LatchkeyError('invalid_request', 'The request target or its Host header is not valid.').toBody()
    : internalErrorBody();
  return new Response(JSON.stringify(body), {
    status: body.error.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}
