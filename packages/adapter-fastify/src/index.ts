/**
 * `@latchkey/adapter-fastify`: serves a Latchkey core from a Fastify app as an encapsulated plugin
 * that hands each request, its body unread, to the shared Node bridge of `@latchkey/core/node`.
 */

import http from 'node:http';
import { type Core, frameworkErrorResponse, isUnderBasePath, LatchkeyError } from '@latchkey/core';
import { serveNodeRequest, toNodePayload } from '@latchkey/core/node';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';

/** Options of {@link latchkeyFastify}. */
export interface LatchkeyFastifyOptions {
  /** The core to serve. Its `basePath` is the full path of the routes, its `bodyLimit` the body cap. */
  core: Core;
}

/**
 * An encapsulated Fastify plugin (deliberately not wrapped in `fastify-plugin`) that answers every
 * method on `core.basePath` and below through `core.handle`:
 *
 * ```ts
 * await app.register(latchkeyFastify, { core });
 * ```
 *
 * Its content-type parser, body limit and error handler apply only to its own routes, so the rest of
 * the app keeps Fastify's defaults. Register it without a `prefix`: set `basePath` on the core instead.
 */
export const latchkeyFastify: FastifyPluginAsync<LatchkeyFastifyOptions> = async (app, options) => {
  const { core } = options;
  if (typeof core?.handle !== 'function') {
    throw new TypeError(
      'latchkeyFastify needs { core }: register it as app.register(latchkeyFastify, { core }).',
    );
  }
  if (app.prefix) {
    throw new Error(
      `latchkeyFastify must be registered without a prefix (got "${app.prefix}"): set basePath on the core.`,
    );
  }
  // The body stays on the raw request, unread: the Node bridge reads it, raw bytes within the core's
  // cap. Over the cap it discards the rest (within a bound) before the 413, where Fastify's own reader
  // would answer while the client is still sending and the client would see a reset.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  // Fastify routes only the methods it knows; teach it every method Node parses (WebDAV and the
  // rest), so core answers them with 405 and Allow instead of Fastify's 404. CONNECT never reaches
  // a request handler in Node.
  for (const method of http.METHODS) {
    if (method === 'CONNECT' || app.supportedMethods.includes(method)) continue;
    app.addHttpMethod(method, { hasBody: true });
  }
  // Inside this scope every error gets the documented body; unknown 4xx go up to the host's handler.
  app.setErrorHandler((error, request, reply) => {
    if (!answerError(error, request, reply, core.bodyLimit)) throw error;
  });
  // The bridge reads and serves; the reply goes out through Fastify, so the app's hooks (onSend
  // included: compression, say) run as for any route.
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const response = await serveNodeRequest(core, request.raw);
    if (!response) return reply.hijack();
    return reply.code(response.status).headers(response.headers).send(toNodePayload(response.body));
  };
  if (core.basePath !== '') app.all(core.basePath, handler);
  app.all(`${core.basePath}/*`, handler);
};

/**
 * Answers an error met while serving a Latchkey request with the documented body. False for a 4xx
 * status Latchkey has no code for (a host rate limiter's 429), which the host app answers.
 */
function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply, bodyLimit: number) {
  const badPath = (error as { code?: unknown } | null)?.code === 'FST_ERR_BAD_URL';
  const refusal = badPath
    ? new LatchkeyError('invalid_request', 'The path is not valid percent-encoding.')
    : error;
  const response = frameworkErrorResponse(refusal, {
    bodyLimit,
    unexpected: (err) => request.log.error({ err }, 'unexpected error while serving a Latchkey request'),
  });
  if (!response) return false;
  reply.code(response.status).headers(response.headers).send(response.body);
  return true;
}

type FrameworkErrors = NonNullable<FastifyServerOptions['frameworkErrors']>;

/**
 * A `frameworkErrors` option for the Fastify server. Fastify answers a few malformed requests (an
 * invalid percent-encoding in the path) before any route or plugin runs, so no plugin can see them;
 * pass this to give those under `core.basePath` the documented error body too. Other paths go to
 * `fallback`, or to the app's error handler.
 *
 * ```ts
 * const app = Fastify({ frameworkErrors: latchkeyFrameworkErrors(core) });
 * ```
 */
export function latchkeyFrameworkErrors(core: Core, fallback?: FrameworkErrors): FrameworkErrors {
  return (error, request, reply) => {
    const ours = isUnderBasePath(request.raw.url ?? '/', core.basePath);
    if (ours && answerError(error, request, reply as FastifyReply, core.bodyLimit)) return;
    if (fallback) fallback(error, request, reply);
    else (reply as FastifyReply).send(error);
  };
}
