/**
 * `@latchkey/adapter-hono`: serves a Latchkey core from a Hono app, on any runtime Hono runs on.
 * The web-standard bridge lives in core (`core.fetch`): raw bytes kept, body size capped.
 */
import type { Core } from '@latchkey/core';
import { Hono } from 'hono';

/**
 * Returns a Hono sub-app answering every method on `core.basePath` and below. Mount it at the root
 * with `app.route('/', latchkeyHono(core))`; other paths fall through to the host app.
 *
 * Bodies over `core.bodyLimit` are answered 413 `payload_too_large`: by `Content-Length` before
 * reading, else as soon as the streamed bytes pass the cap.
 */
export function latchkeyHono(core: Core): Hono {
  const app = new Hono();
  app.all(`${core.basePath}/*`, (c) => core.fetch(c.req.raw));
  return app;
}

export { latchkeyRequestErrors } from './request-errors.js';
