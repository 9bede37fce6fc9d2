/**
 * The bridge for WHATWG `Request`/`Response` runtimes (Hono, Bun, Deno, workers), written once:
 * the body is read with the size cap enforced before and while reading.
 */

import { isLatchkeyError, LatchkeyError } from '../errors/latchkey-error.js';
import type { CoreRequest, CoreResponse } from '../model/core-request.js';
import { errorBodyResponse, payloadTooLarge } from './framework-error.js';

/**
 * Serves one WHATWG `Request` through `handle` (the core's `handle`): reads the body within
 * `bodyLimit`, and answers a body that cannot be read (over the cap, or a stream that fails) with the
 * documented error body rather than throwing.
 */
export async function handleWebRequest(
  handle: (request: CoreRequest) => Promise<CoreResponse>,
  request: Request,
  bodyLimit: number,
): Promise<Response> {
  let coreRequest: CoreRequest;
  try {
    coreRequest = await fromWebRequest(request, bodyLimit);
  } catch (error) {
    // A body stream that fails is a client that went away or broke its framing mid-body: answer
    // (nobody may read it) rather than throw an error the server would log as the app's own.
    const refusal = isLatchkeyError(error)
      ? error
      : new LatchkeyError('invalid_request', 'The request body could not be read to its end.');
    // The unread rest of the body is still on the connection: tell the client not to reuse it.
    return toWebResponse(errorBodyResponse(refusal.toBody(), { connection: 'close' }));
  }
  return toWebResponse(await handle(coreRequest));
}

/**
 * Converts a `Request` into a core request, keeping the raw body bytes. Throws a
 * `payload_too_large` {@link LatchkeyError} when `Content-Length` or the streamed bytes pass `bodyLimit`.
 */
export async function fromWebRequest(request: Request, bodyLimit: number): Promise<CoreRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    method: request.method,
    url: url.pathname + url.search,
    headers,
    body: await readBody(request, bodyLimit),
  };
}

async function readBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const length = request.headers.get('content-length');
  if (length !== null) {
    if (Number(length) > limit) return discardThenRefuse(request.body, 0, limit);
    // A declared length is read in one go. `request.body` is not touched first: on @hono/node-server
    // that getter builds a web stream and disables its direct read off the socket.
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > limit) throw payloadTooLarge(limit);
    return bytes.byteLength === 0 ? undefined : bytes;
  }
  if (!request.body) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.releaseLock();
      return discardThenRefuse(request.body, size, limit);
    }
    chunks.push(value);
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

/**
 * Reads and drops the rest of an oversized body (up to 4x the limit, or 5 s), then throws the 413.
 * Answering while the client is still sending makes the server close a connection the client is
 * writing to, and most clients then report a reset instead of the 413.
 */
async function discardThenRefuse(
  body: ReadableStream<Uint8Array> | null,
  alreadyRead: number,
  limit: number,
): Promise<never> {
  if (body) {
    const reader = body.getReader();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A client that stalls mid-body is not waited for past the deadline.
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), 5_000);
    });
    let size = alreadyRead;
    try {
      while (size < limit * 4) {
        const next = await Promise.race([reader.read(), deadline]);
        if (next === 'late' || next.done) break;
        size += next.value.byteLength;
      }
    } catch {
      // The client went away: the refusal below goes nowhere, which is fine.
    } finally {
      clearTimeout(timer);
    }
    await reader.cancel().catch(() => {});
  }
  throw payloadTooLarge(limit);
}

/** Converts a core response to a WHATWG `Response`, streaming async-iterable bodies. */
export function toWebResponse(response: CoreResponse): Response {
  const body = response.body;
  let init: BodyInit | null;
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
    init = body as BodyInit | null;
  } else {
    const iterator = body[Symbol.asyncIterator]();
    const encoder = new TextEncoder();
    init = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    });
  }
  return new Response(init, { status: response.status, headers: response.headers });
}
