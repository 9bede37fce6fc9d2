/**
 * `@latchkey/core/node`: the Node bridge, written once and split by job. It turns an
 * `IncomingMessage` into a core request (raw bytes kept, size capped, client aborts
 * propagated), writes a core response to a `ServerResponse` (with backpressure for streamed
 * bodies), joins the two around `core.handle`, and answers the requests Node's own parser refuses.
 * The Express and Fastify adapters and plain `node:http` servers use it; an adapter of another
 * framework joins `toCoreRequest` and `sendCoreResponse` itself, with `errorResponse` for what fails
 * outside `core.handle` and `isRequestAborted` for a client that went away.
 */
export { latchkeyClientError } from '../node/client-error.js';
export {
  createNodeHandler,
  errorResponse,
  type HandleNodeRequestOptions,
  handleNodeRequest,
  serveNodeRequest,
} from '../node/handle-node-request.js';
export { toNodePayload } from '../node/node-payload.js';
export { isRequestAborted, RequestAbortedError } from '../node/read-body.js';
export { sendCoreResponse } from '../node/send-core-response.js';
export { type ToCoreRequestOptions, toCoreRequest } from '../node/to-core-request.js';
