/**
 * `@latchkey/core/node`: the Node bridge, written once and split by job. It turns an
 * `IncomingMessage` into a core request (raw bytes kept, size capped, client aborts
 * propagated), writes a core response to a `ServerResponse` (with backpressure for streamed
 * bodies), joins the two around `core.handle`, and answers the requests Node's own parser refuses.
 * The Express and Fastify adapters and plain `node:http` servers use it.
 */
export { payloadTooLarge } from '../http/framework-error.js';
export { latchkeyClientError, rawErrorResponse } from './client-error.js';
export {
  createNodeHandler,
  errorResponse,
  type HandleNodeRequestOptions,
  handleNodeRequest,
  serveNodeRequest,
} from './handle-node-request.js';
export { toNodePayload } from './node-payload.js';
export { type DrainBound, isRequestAborted, RequestAbortedError, readNodeBody } from './read-body.js';
export { sendCoreResponse } from './send-core-response.js';
export { type ToCoreRequestOptions, toCoreRequest } from './to-core-request.js';
