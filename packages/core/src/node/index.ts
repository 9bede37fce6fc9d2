/**
 * `@latchkey/core/node`: the Node bridge, written once. It turns an `IncomingMessage` into a
 * {@link CoreRequest} (raw bytes kept, size capped, client aborts propagated) and writes a
 * {@link CoreResponse} to a `ServerResponse` (with backpressure for streamed bodies). The Express
 * adapter and plain `node:http` servers use it; Fastify reads the body with its own parser.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from '../core.js';
import { internalErrorBody, isLatchkeyError, LatchkeyError } from '../errors.js';
import type { CoreRequest, CoreResponse } from '../http.js';
import { jsonResponse } from '../http.js';
import { type DrainBound, isRequestAborted, readNodeBody } from './read-body.js';

export { latchkeyClientError, rawErrorResponse } from './client-error.js';
export {
  type DrainBound,
  isRequestAborted,
  payloadTooLarge,
  RequestAbortedError,
  readNodeBody,
} from './read-body.js';

/** Options of {@link toCoreRequest}. */
export interface ToCoreRequestOptions {
  /** Largest body in bytes; a larger one rejects with a `payload_too_large` {@link LatchkeyError}. */
  bodyLimit: number;
  /**
   * Path and query to hand to the core. Default `req.url`. Frameworks that rewrite `req.url` for
   * mounted sub-apps pass the original one (Express: `req.originalUrl`).
   */
  url?: string;
  /** How much of an oversized body to discard before answering 413. */
  drain?: DrainBound;
}

/**
 * Reads a Node request into a {@link CoreRequest}. The body is the exact bytes received (signatures
 * are computed over them), or `undefined` when the request has none.
 *
 * Rejects with a {@link LatchkeyError} `payload_too_large` when `Content-Length` or the bytes read
 * exceed `bodyLimit` (after discarding the rest of the body within a bound, so the client reads the 413), with
 * `invalid_request` when another middleware already consumed the body, and with
 * {@link RequestAbortedError} when the client disconnects first. It never leaves a promise pending.
 */
export function toCoreRequest(req: IncomingMessage, options: ToCoreRequestOptions): Promise<CoreRequest> {
  const request: CoreRequest = {
    method: req.method ?? 'GET',
    url: options.url ?? req.url ?? '/',
    headers: req.headers,
    body: undefined,
  };
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  // HTTP/1.1: without Content-Length or Transfer-Encoding a request has no body at all.
  if (!chunked && (length === undefined || length === '0')) return Promise.resolve(request);
  if (req.readableEnded || (req as { _body?: unknown })._body === true) {
    return Promise.reject(
      new LatchkeyError(
        'invalid_request',
        'The request body was already read by another middleware. Mount Latchkey before any body parser ' +
          '(e.g. express.json()): signatures are checked over the raw bytes.',
      ),
    );
  }
  const declared = length === undefined ? undefined : Number(length);
  return readNodeBody(req, options.bodyLimit, declared, options.drain).then((body) => {
    request.body = body;
    return request;
  });
}

/**
 * Writes a core response. String and byte bodies go out with `Content-Length`; an async iterable is
 * streamed chunk by chunk, waiting for `drain`, and stops (closing the iterator) when the client goes
 * away. An iterable that fails before its first chunk becomes a 500 `internal_error`; one that fails
 * later ends the connection abruptly, so a client never mistakes a truncated stream for a whole one.
 * Resolves once the response is handed to the socket or abandoned; never rejects.
 */
export async function sendCoreResponse(res: ServerResponse, response: CoreResponse): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  const { body } = response;
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
    writeHead(
      res,
      response,
      body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    );
    res.end(body ?? undefined);
    return;
  }
  const iterator = body[Symbol.asyncIterator]();
  let gone = false;
  const onClose = () => {
    gone = true;
  };
  res.once('close', onClose);
  try {
    let next: IteratorResult<string | Uint8Array>;
    try {
      next = await iterator.next();
    } catch {
      res.off('close', onClose);
      if (!gone) await sendCoreResponse(res, jsonResponse(500, internalErrorBody()));
      return;
    }
    if (gone) return;
    writeHead(res, response, undefined);
    while (!next.done) {
      if (!res.write(next.value) && !(await drained(res))) return;
      if (gone) return;
      next = await iterator.next();
      if (gone) return;
    }
    res.end();
  } catch (error) {
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    res.off('close', onClose);
    if (gone) await iterator.return?.().catch(ignore);
  }
}

/** Options of {@link handleNodeRequest}. */
export interface HandleNodeRequestOptions {
  /** Path and query to hand to the core. Default `req.url`. */
  url?: string;
}

/**
 * Serves one request through the core: reads it, calls `core.handle`, writes the answer. Body-cap
 * and consumed-body failures are answered with the documented error body; a client that went away
 * gets nothing. Never rejects.
 */
export async function handleNodeRequest(
  core: Core,
  req: IncomingMessage,
  res: ServerResponse,
  options: HandleNodeRequestOptions = {},
): Promise<void> {
  let response: CoreResponse;
  try {
    const request = await toCoreRequest(req, { bodyLimit: core.bodyLimit, url: options.url ?? req.url });
    response = await core.handle(request);
  } catch (error) {
    if (isRequestAborted(error)) return;
    response = errorResponse(error);
    // An oversized body was discarded only up to a bound: never read another request after it.
    if (response.status === 413) response.headers['connection'] = 'close';
  }
  await sendCoreResponse(res, response);
}

/**
 * A `node:http` request listener that serves the core and nothing else:
 * `http.createServer(createNodeHandler(core)).listen(3000)`.
 */
export function createNodeHandler(core: Core): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handleNodeRequest(core, req, res);
  };
}

/** The documented response for a failure outside `core.handle` (a Latchkey error, else a bare 500). */
export function errorResponse(error: unknown): CoreResponse {
  return isLatchkeyError(error)
    ? jsonResponse(error.status, error.toBody())
    : jsonResponse(500, internalErrorBody());
}

function writeHead(res: ServerResponse, response: CoreResponse, length: number | undefined): void {
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  const bodiless = response.status === 204 || response.status === 304;
  if (length !== undefined && !bodiless) res.setHeader('content-length', length);
}

function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

function ignore(): void {}
