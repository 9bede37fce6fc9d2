/**
 * A core response body as a Node framework sends it itself (Fastify's `reply.send`), for adapters
 * that let the framework write the reply so its own hooks run.
 */
import { Readable } from 'node:stream';
import type { CoreResponse } from '../model/core-request.js';

/** Bytes as a `Buffer` view (no copy), a stream as a byte `Readable`, no body as `undefined`. */
export function toNodePayload(body: CoreResponse['body']): string | Buffer | Readable | undefined {
  if (body === null || typeof body === 'string') return body ?? undefined;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Readable.from(body, { objectMode: false });
}
