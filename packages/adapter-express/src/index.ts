/**
 * `@latchkey/adapter-express`: serves a Latchkey core from an Express app. Requests under
 * `core.basePath` go to `core.handle` through the shared Node bridge; everything else falls through
 * to the next middleware.
 */
import type { Core } from '@latchkey/core';
import { handleNodeRequest } from '@latchkey/core/node';
import type { RequestHandler } from 'express';

/**
 * Returns an Express middleware that answers every request under `core.basePath` (default
 * `/api/v2`) and calls `next()` for any other path.
 *
 * Mount it with `app.use(latchkeyExpress(core))`, without a path (the base path is matched against
 * `req.originalUrl`, so it is always the full path), and before any body parser such as
 * `express.json()`: push signatures are checked over the raw bytes, which a parser consumes. If a
 * parser ran first, API requests with a body are answered 400 `invalid_request` saying so.
 *
 * Bodies are capped at `core.bodyLimit` (413 `payload_too_large`), and every error is the documented
 * `{"error":{...}}` body, so Express's own error handler never sees a Latchkey request.
 *
 * @example
 * ```ts
 * const app = express();
 * app.use(latchkeyExpress(createCore()));
 * app.use(express.json()); // the host app's own routes may parse bodies after it
 * ```
 */
export function latchkeyExpress(core: Core): RequestHandler {
  const base = core.basePath;
  return function latchkey(req, res, next) {
    const url = req.originalUrl;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (base !== '' && path !== base && !path.startsWith(`${base}/`)) {
      next();
      return;
    }
    handleNodeRequest(core, req, res, { url }).catch(next);
  };
}
