/**
 * `@latchkey/adapter-express`: serves a Latchkey core from an Express app. Requests under
 * `core.basePath` go to `core.handle` through the shared Node bridge; everything else falls through
 * to the next middleware.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Core, isUnderBasePath } from '@latchkey/core';
import { handleNodeRequest } from '@latchkey/core/node';
import type { Application, RequestHandler } from 'express';

/** Options of {@link latchkeyExpress}. */
export interface LatchkeyExpressOptions {
  /**
   * When this middleware is the first one of a top-level app, answer API requests before Express's
   * per-request setup (prototype swap, `res.locals`, router walk), which nothing in the app could
   * observe anyway. Other paths, and apps with middleware before this one, are untouched. Default true.
   */
  fastPath?: boolean;
}

type Handle = (req: IncomingMessage, res: ServerResponse, callback?: (error?: unknown) => void) => void;
type ExpressApp = Application & {
  handle: Handle;
  parent?: unknown;
  router?: { stack?: { handle?: unknown; slash?: boolean }[] };
};

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
export function latchkeyExpress(core: Core, options: LatchkeyExpressOptions = {}): RequestHandler {
  const patched = new WeakSet<object>();
  const middleware: RequestHandler = function latchkey(req, res, next) {
    if (options.fastPath !== false && !patched.has(req.app)) {
      patched.add(req.app);
      installFastPath(req.app as ExpressApp, middleware, core);
    }
    const url = req.originalUrl;
    if (!isUnderBasePath(url, core.basePath)) return next();
    handleNodeRequest(core, req, res, { url }).catch(next);
  };
  return middleware;
}

/**
 * Answers API paths straight from `app.handle` when this middleware is the first layer of a
 * top-level app, mounted at `/`: no layer can run before it, so skipping Express's setup changes
 * nothing visible except speed. Express's `X-Powered-By` header is kept as the app configures it.
 */
function installFastPath(app: ExpressApp, middleware: RequestHandler, core: Core): void {
  const first = app.router?.stack?.[0];
  const atRoot = first?.handle === middleware && first.slash === true;
  if (app.parent !== undefined || !atRoot || typeof app.handle !== 'function') return;
  const handle = app.handle;
  app.handle = function fastHandle(req, res, callback) {
    const url = req.url ?? '/';
    if (!isUnderBasePath(url, core.basePath)) return handle.call(this, req, res, callback);
    if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
    handleNodeRequest(core, req, res, { url }).catch((error: unknown) => {
      if (callback) callback(error);
      else res.destroy(error instanceof Error ? error : undefined);
    });
  };
}
