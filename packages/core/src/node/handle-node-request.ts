/**
 * The Node bridge joined up: a Node request read into a core request, served by `core.handle`, and
 * the answer written back. Express, Fastify and plain `node:http` servers all serve through it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from '../core.js';
import { internalErrorBody, isLatchkeyError } from '../errors/latchkey-error.js';
import { errorBodyResponse } from '../http/framework-error.js';
import type { CoreResponse } from '../model/core-request.js';
import { isRequestAborted } from './read-body.js';
import { sendCoreResponse } from './send-core-response.js';
import { toCoreRequest } from './to-core-request.js';

/** Options of {@link handleNodeRequest}. */
export interface HandleNodeRequestOptions {
  /** Path and query to hand to the core. Default `req.url`. */
  url?: string;
}

/**
 * Serves one request through the core: reads it, calls `core.handle` and returns the answer, without
 * writing it (for a framework that sends replies itself, so its own hooks still run). Body-cap and
 * consumed-body failures become the documented error answer; `null` when the client went away.
 * Never rejects.
 */
export async function serveNodeRequest(
  core: Core,
  req: IncomingMessage,
  options: HandleNodeRequestOptions = {},
): Promise<CoreResponse | null> {
  try {
    const request = await toCoreRequest(req, { bodyLimit: core.bodyLimit, url: options.url ?? req.url });
    return await core.handle(request);
  } catch (error) {
    if (isRequestAborted(error)) return null;
    const response = errorResponse(error);
    // An oversized body was discarded only up to a bound: never read another request after it.
    if (response.status === 413) response.headers['connection'] = 'close';
    return response;
  }
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
  const response = await serveNodeRequest(core, req, options);
  if (response) await sendCoreResponse(res, response);
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
  return errorBodyResponse(isLatchkeyError(error) ? error.toBody() : internalErrorBody());
}
