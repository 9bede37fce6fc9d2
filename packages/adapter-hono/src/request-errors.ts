/**
 * @hono/node-server builds a web `Request` from Node's request before any Hono app runs, and refuses
 * some targets itself (a Host header that does not match the URL it would build, a missing Host, a
 * backslash in the path, a malformed absolute URL) with an empty 400. Its `getRequestListener` takes
 * an `errorHandler` for exactly these; `serve()` does not pass one through.
 */
import { frameworkErrorResponse, LatchkeyError, toWebResponse } from '@latchkey/core';

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
  // Passing no error makes the answer the bare 500, whatever status the escaped error carries.
  const refusal = refused
    ? new LatchkeyError('invalid_request', 'The request target or its Host header is not valid.')
    : undefined;
  return toWebResponse(frameworkErrorResponse(refusal)!);
}
