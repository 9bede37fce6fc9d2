/**
 * Node's HTTP parser refuses some requests before any framework or Latchkey sees them: a request
 * line or headers over `maxHeaderSize` (431), and malformed framing (a bad or doubled
 * `Content-Length`, `Content-Length` with `Transfer-Encoding`, a bad chunk size, a NUL or other
 * forbidden byte in a header: 400). Node then writes a bare status line, and Fastify its own JSON.
 * The server's `clientError` event is the one place to answer these; this listener answers them
 * with Latchkey's documented error body.
 */
import type { Duplex } from 'node:stream';
import { type ErrorCode, LatchkeyError } from '../errors/latchkey-error.js';
import { errorBodyResponse } from '../http/framework-error.js';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/** The documented refusal for a parser error code of Node's HTTP server. */
function refusalFor(code: string | undefined): LatchkeyError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new LatchkeyError(
      'request_header_fields_too_large',
      'The request line and headers are larger than this server accepts.',
    );
  }
  const errorCode: ErrorCode = 'invalid_request';
  return new LatchkeyError(
    errorCode,
    'The request is not well-formed HTTP/1.1 (request line, headers or body framing).',
  );
}

/** The complete raw HTTP/1.1 response for a refusal; the connection closes after it. */
function rawErrorResponse(error: LatchkeyError): string {
  const { headers, body } = errorBodyResponse(error.toBody());
  const fields = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return (
    `HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Error'}\r\n${fields.join('')}` +
    `content-length: ${Buffer.byteLength(body as string)}\r\n` +
    'connection: close\r\n\r\n' +
    body
  );
}

/**
 * A `clientError` listener for a Node HTTP server (`server.on('clientError', latchkeyClientError)`),
 * also usable as Fastify's `clientErrorHandler` option. It answers parser refusals with the
 * documented `{"error":{...}}` body, only when nothing was written on the connection yet (a
 * response already under way is never corrupted), then closes the connection. A client that reset
 * the connection gets nothing; an idle request that timed out gets Node's usual bare 408.
 *
 * It applies to the whole server, not only to the API's base path: when the parser fails, the path
 * may not even be known.
 */
export function latchkeyClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const untouched = socket.writable && (socket as { bytesWritten?: number }).bytesWritten === 0;
  if (!untouched) {
    socket.destroy();
    return;
  }
  const response =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n'
      : rawErrorResponse(refusalFor(error.code));
  // end() flushes the answer before closing; destroy() right away could drop it.
  socket.end(response);
  const timer = setTimeout(() => socket.destroy(), 1_000);
  timer.unref?.();
  socket.once('close', () => clearTimeout(timer));
}
