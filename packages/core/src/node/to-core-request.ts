/**
 * A Node request read into a core request: the reading half of the Node bridge. The body is kept as
 * the exact bytes received, capped at the core's body limit, and a client that goes away mid-body
 * rejects rather than leaving the request pending.
 */
import type { IncomingMessage } from 'node:http';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { CoreRequest } from '../model/core-request.js';
import { type DrainBound, readNodeBody } from './read-body.js';

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
 * `RequestAbortedError` when the client disconnects first. It never leaves a promise pending.
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
