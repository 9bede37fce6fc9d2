/**
 * What the harness of the HTTP conformance suite and a spawned server under test say to each other
 * over Node's IPC channel (structured clone: dates, bytes, maps and `undefined` cross as they are).
 * The harness asks; the server answers each request by its id, and tells of each delivery its
 * core's fake transport received. An error crosses as its fields and is made again on the other
 * side, a `LatchkeyError` as one, so a caller sees the code and status the store threw.
 */
import { type ErrorCode, LatchkeyError } from '@latchkey/core';
import type { ConformanceKeys } from '../conformance-core.js';
import type { SentDelivery } from '../harness/fake-network.js';

/** A request of the harness; `id` pairs it with its answer. */
export type RemoteRequest = { id: number } & (
  | { op: 'init'; keys: ConformanceKeys }
  | { op: 'call'; tx: number | null; repository: string; method: string; args: unknown[] }
  | { op: 'status' }
  | { op: 'begin' }
  | { op: 'commit'; tx: number }
  | { op: 'rollback'; tx: number }
  | { op: 'clock'; pinnedMs: number | null }
  | { op: 'failures' }
  | { op: 'metricsText' }
  | { op: 'bootstrap'; options: { organization: string; user: string; token: string } }
  | { op: 'sync' }
);

/** The answer to one request. */
export type RemoteAnswer = { id: number } & (
  | { ok: true; value: unknown }
  | { ok: false; error: RemoteError }
);

/** What the server tells unasked: a delivery its core sent through the fake transport. */
export interface RemoteSent {
  sent: SentDelivery;
}

/** What the server answers `init` with: where it serves, and the shape of its store. */
export interface RemoteHello {
  url: string;
  serialTransactions: boolean;
  /** The method names of each repository of the store. */
  repositories: Record<string, string[]>;
  /** The core's routes, as the suite reads them. */
  routes: { method: string; path: string; operationId: string; auth: unknown }[];
}

/** An error as it crosses the channel. */
export interface RemoteError {
  name: string;
  message: string;
  code?: string;
  details?: unknown;
  extra?: Record<string, unknown>;
  retryAfterSeconds?: number;
}

/** `error` as it crosses the channel. */
export function toRemoteError(error: unknown): RemoteError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields = error as Error & Partial<RemoteError>;
  return {
    name: error.name,
    message: error.message,
    ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
    ...(fields.details !== undefined ? { details: fields.details } : {}),
    ...(fields.extra !== undefined ? { extra: fields.extra } : {}),
    ...(fields.retryAfterSeconds !== undefined ? { retryAfterSeconds: fields.retryAfterSeconds } : {}),
  };
}

/** The error a {@link RemoteError} describes, made again (a `LatchkeyError` as one). */
export function fromRemoteError(remote: RemoteError): Error {
  if (remote.name === 'LatchkeyError' && remote.code) {
    return new LatchkeyError(remote.code as ErrorCode, remote.message, {
      ...(remote.details !== undefined ? { details: remote.details as never } : {}),
      ...(remote.extra !== undefined ? { extra: remote.extra } : {}),
      ...(remote.retryAfterSeconds !== undefined ? { retryAfterSeconds: remote.retryAfterSeconds } : {}),
    });
  }
  return Object.assign(new Error(remote.message), {
    name: remote.name,
    ...(remote.code ? { code: remote.code } : {}),
  });
}
