/**
 * `@latchkey/adapter-hono`: serves a Latchkey core from a Hono app, on any runtime Hono runs on.
 * Requests under `core.basePath` are translated from the web-standard `Request` to a core request
 * (raw bytes kept, size capped) and the core response back to a `Response`.
 */
import { type Core, type CoreResponse, jsonResponse, LatchkeyError, toWebResponse } from '@latchkey/core';
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
  app.all(`${core.basePath}/*`, async (c) => {
    const request = c.req.raw;
    const body = await readBody(request, core.bodyLimit);
    if (body === TOO_LARGE) return toWebResponse(tooLarge(core.bodyLimit));
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const response = await core.handle({
      method: request.method,
      url: url.pathname + url.search,
      headers,
      body,
    });
    return toWebResponse(response);
  });
  return app;
}

const TOO_LARGE = Symbol('too large');

async function readBody(request: Request, limit: number): Promise<Uint8Array | undefined | typeof TOO_LARGE> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const length = request.headers.get('content-length');
  if (length !== null) {
    if (Number(length) > limit) return TOO_LARGE;
    // A declared length is read in one go (which @hono/node-server serves straight off the socket).
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > limit ? TOO_LARGE : bytes.byteLength === 0 ? undefined : bytes;
  }
  if (!request.body) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) return TOO_LARGE;
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(limit: number): CoreResponse {
  return jsonResponse(
    413,
    new LatchkeyError('payload_too_large', `The request body exceeds ${limit} bytes.`).toBody(),
  );
}
