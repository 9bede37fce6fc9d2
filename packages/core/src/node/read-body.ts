/**
 * Reading a Node request body with a size cap, written once for every Node adapter (the Express
 * bridge and Fastify's raw-body parser). Going over the cap does not cut the connection: a client
 * that writes its whole body before it reads (Node's `fetch`, most HTTP libraries) would see a reset
 * instead of the 413. The rest of the body is read and thrown away, up to a bound, and only then is
 * the refusal returned; the caller answers it and closes the connection.
 */
import type { Readable } from 'node:stream';
import { payloadTooLarge } from '../http/framework-error.js';

/** How much of an oversized body is read and discarded before answering 413 anyway. */
export interface DrainBound {
  /** Bytes to discard at most, counted from the start of the body. Default: 4 x the limit. */
  bytes?: number;
  /** Milliseconds to spend discarding at most. Default 5,000. */
  ms?: number;
}

/** Rejection of {@link readNodeBody} when the client went away before the body was complete. */
export class RequestAbortedError extends Error {
  readonly code = 'ECONNRESET';
  constructor() {
    super('The client closed the connection before the request body was complete.');
    this.name = 'RequestAbortedError';
  }
}

/** True when `error` says the client went away, so there is nobody left to answer. */
export function isRequestAborted(error: unknown): error is RequestAbortedError {
  return error instanceof RequestAbortedError;
}

/**
 * Reads `stream` to its end and resolves with the bytes (`undefined` when empty). Rejects with a
 * `payload_too_large` Latchkey error when `declaredLength` or the bytes read pass `limit`,
 * after discarding the rest of the body within `bound`; with {@link RequestAbortedError} when the
 * stream fails or closes first. Never leaves a promise pending.
 */
export function readNodeBody(
  stream: Readable,
  limit: number,
  declaredLength: number | undefined,
  bound: DrainBound = {},
): Promise<Buffer | undefined> {
  if (stream.destroyed) return Promise.reject(new RequestAbortedError());
  const maxDiscard = bound.bytes ?? limit * 4;
  const maxMs = bound.ms ?? 5_000;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = declaredLength !== undefined && declaredLength > limit;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: () => void) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (timer) clearTimeout(timer);
      outcome();
    };
    const refuse = () => {
      // Whatever still arrives is dropped; an error after the answer must not crash the process.
      stream.on('error', ignore);
      finish(() => reject(payloadTooLarge(limit)));
    };
    const startDiscarding = () => {
      over = true;
      chunks.length = 0;
      if (size >= maxDiscard) return refuse();
      timer = setTimeout(refuse, maxMs);
      timer.unref?.();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        if (size >= maxDiscard) refuse();
        return;
      }
      if (size > limit) {
        startDiscarding();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () =>
      finish(() => {
        if (over) reject(payloadTooLarge(limit));
        else resolve(size === 0 ? undefined : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      });
    const onError = () =>
      finish(() => (over ? reject(payloadTooLarge(limit)) : reject(new RequestAbortedError())));
    // 'close' before 'end' means the connection went away mid-body.
    const onClose = onError;
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
    if (over) startDiscarding();
    stream.resume();
  });
}

function ignore(): void {}
