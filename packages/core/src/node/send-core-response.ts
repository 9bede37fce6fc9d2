/**
 * A core response written to a Node `ServerResponse`: the writing half of the Node bridge, with
 * backpressure for streamed bodies and a stop when the client goes away.
 */
import type { ServerResponse } from 'node:http';
import { internalErrorBody } from '../errors/latchkey-error.js';
import { errorBodyResponse } from '../http/framework-error.js';
import type { CoreResponse } from '../model/core-request.js';

/**
 * Writes a core response. String and byte bodies go out with `Content-Length`; an async iterable is
 * streamed chunk by chunk, waiting for `drain`, and stops (closing the iterator) when the client goes
 * away. An iterable that fails before its first chunk becomes a 500 `internal_error`; one that fails
 * later ends the connection abruptly, so a client never mistakes a truncated stream for a whole one.
 * Resolves once the response is handed to the socket or abandoned; never rejects.
 */
export async function sendCoreResponse(res: ServerResponse, response: CoreResponse): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  const { body } = response;
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
    writeHead(
      res,
      response,
      body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    );
    res.end(body ?? undefined);
    return;
  }
  const iterator = body[Symbol.asyncIterator]();
  let gone = false;
  const onClose = () => {
    gone = true;
  };
  res.once('close', onClose);
  try {
    let next: IteratorResult<string | Uint8Array>;
    try {
      next = await iterator.next();
    } catch {
      res.off('close', onClose);
      if (!gone) await sendCoreResponse(res, errorBodyResponse(internalErrorBody()));
      return;
    }
    if (gone) return;
    writeHead(res, response, undefined);
    while (!next.done) {
      if (!res.write(next.value) && !(await drained(res))) return;
      if (gone) return;
      next = await iterator.next();
      if (gone) return;
    }
    res.end();
  } catch (error) {
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    res.off('close', onClose);
    if (gone) await iterator.return?.().catch(ignore);
  }
}

function writeHead(res: ServerResponse, response: CoreResponse, length: number | undefined): void {
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  const bodiless = response.status === 204 || response.status === 304;
  if (length !== undefined && !bodiless) res.setHeader('content-length', length);
}

/** Resolves true once `res` can take more, false when it closed first. */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

function ignore(): void {}
