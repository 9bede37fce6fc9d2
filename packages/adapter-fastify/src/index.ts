/**
 * `@latchkey/adapter-fastify`: serves a Latchkey core from a Fastify app as an encapsulated plugin.
 * Inside its scope the body is read as raw bytes by one catch-all content-type parser (signatures are
 * checked over those bytes), and Fastify's own errors are answered with Latchkey's error body.
 */

import http from 'node:http';
import { Readable } from 'node:stream';
import {
  type Core,
  type ErrorBody,
  type ErrorCode,
  internalErrorBody,
  isLatchkeyError,
  LatchkeyError,
} from '@latchkey/core';
import { isRequestAborted, readNodeBody } from '@latchkey/core/node';
import type {
  FastifyError,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';

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
  if (!core || typeof core.handle !== 'function') {
    throw new TypeError(
      'latchkeyFastify needs { core }: register it as app.register(latchkeyFastify, { core }).',
    );
  }
  if (app.prefix) {
    throw new Error(
      `latchkeyFastify must be registered without a prefix (got "${app.prefix}"): set basePath on the core.`,
    );
  }
  app.removeAllContentTypeParsers();
  // Our own reader rather than `parseAs: 'buffer'`: over the limit, Fastify's reader answers 413 and
  // closes while the client is still sending, which it sees as a reset. Core's reader discards the
  // rest of the body (within a bound) first, so the 413 arrives.
  app.addContentTypeParser('*', (request, payload, done) => {
    const length = request.headers['content-length'];
    readNodeBody(payload, core.bodyLimit, length === undefined ? undefined : Number(length)).then(
      (body) => done(null, body),
      (error: Error) => done(error, undefined),
    );
  });
  // Fastify routes only the methods it knows; teach it every method Node parses (WebDAV and the
  // rest), so core answers them with 405 and Allow instead of Fastify's 404. CONNECT never reaches
  // a request handler in Node.
  for (const method of http.METHODS) {
    if (method === 'CONNECT' || app.supportedMethods.includes(method)) continue;
    app.addHttpMethod(method, { hasBody: true });
  }
  // Inside this scope every error gets the documented body; unknown 4xx go up to the host's handler.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const body = toErrorBody(error, request, core.bodyLimit);
    if (!body) throw error;
    return sendError(reply, body);
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const response = await core.handle({
      method: request.method,
      url: request.raw.url ?? request.url,
      headers: request.raw.headers,
      body: request.body as Buffer | undefined,
    });
    reply.code(response.status).headers(response.headers);
    const { body } = response;
    if (body === null) return reply.send();
    if (typeof body === 'string') return reply.send(body);
    if (body instanceof Uint8Array)
      return reply.send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    return reply.send(Readable.from(body, { objectMode: false }));
  };
  const route = { bodyLimit: core.bodyLimit, handler };
  if (core.basePath !== '') app.all(core.basePath, route);
  app.all(`${core.basePath}/*`, route);
};

/** Statuses of Fastify's own request errors, with the documented code each one becomes. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_request: 'The request could not be read.',
  unauthenticated: 'Authentication is required.',
  forbidden: 'This request is not allowed.',
  not_found: 'Not found.',
  method_not_allowed: 'This method is not allowed here.',
  unsupported_media_type: 'Send the body as application/json.',
};

/**
 * The documented body for an error met while serving a Latchkey request, or `undefined` for a 4xx
 * status Latchkey has no code for (a host rate limiter's 429, say), which the host app answers.
 */
function toErrorBody(error: FastifyError, request: FastifyRequest, bodyLimit: number): ErrorBody | undefined {
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (isLatchkeyError(error)) return error.toBody();
  // The client went away mid-body: nobody reads this answer, and nothing unexpected happened.
  if (isRequestAborted(error))
    return new LatchkeyError('invalid_request', 'The request body is incomplete.').toBody();
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
    return new LatchkeyError('payload_too_large', `The request body exceeds ${bodyLimit} bytes.`).toBody();
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return new LatchkeyError('invalid_request', 'The path is not valid percent-encoding.').toBody();
  }
  if (status >= 400 && status < 500) {
    const code = CODE_BY_STATUS[status];
    return code && new LatchkeyError(code, MESSAGES[code]!).toBody();
  }
  request.log.error({ err: error }, 'unexpected error while serving a Latchkey request');
  return internalErrorBody();
}

function sendError(reply: FastifyReply, body: ErrorBody): FastifyReply {
  return reply
    .code(body.error.status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(JSON.stringify(body));
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
    const url = request.raw.url ?? '/';
    const path = url.split('?', 1)[0]!;
    const ours = core.basePath === '' || path === core.basePath || path.startsWith(`${core.basePath}/`);
    const body = ours ? toErrorBody(error, request, core.bodyLimit) : undefined;
    if (body) sendError(reply, body);
    else if (fallback) fallback(error, request, reply);
    else (reply as FastifyReply).send(error);
  };
}
