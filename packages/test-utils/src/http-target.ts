/**
 * How the HTTP conformance suite talks to a server: in-process through `core.handle`, or over a real
 * loopback port through any adapter. The suite is written once against this interface.
 */
import type { Core } from '@latchkey/core';

/** A response as the suite sees it. */
export interface TargetResponse {
  status: number;
  headers: Record<string, string>;
  /** The raw body text. */
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** A request as the suite sends it. `body` is sent as is (a string or bytes), never re-encoded. */
export interface TargetRequest {
  method: string;
  /** Path with query, starting with `/api/v2`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** A running server under test. */
export interface HttpTarget {
  send(request: TargetRequest): Promise<TargetResponse>;
  close(): Promise<void>;
}

/** Starts a server around a core (already bootstrapped by the suite) and returns its target. */
export type StartTarget = (core: Core) => Promise<HttpTarget>;

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A target that calls `core.handle` directly. */
export const inProcessTarget: StartTarget = async (core) => ({
  async send(request) {
    const response = await core.handle({
      method: request.method,
      url: request.path,
      headers: Object.fromEntries(
        Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
      ),
      body: request.body,
    });
    const text =
      typeof response.body === 'string'
        ? response.body
        : response.body instanceof Uint8Array
          ? Buffer.from(response.body).toString('utf8')
          : '';
    return { status: response.status, headers: response.headers, text, json: parse(text) };
  },
  async close() {},
});

/** A target that sends real HTTP requests to `baseUrl` (e.g. `http://127.0.0.1:PORT`). */
export function fetchTarget(baseUrl: string, close: () => Promise<void>): HttpTarget {
  return {
    async send(request) {
      const response = await fetch(baseUrl + request.path, {
        method: request.method,
        headers: request.headers,
        body: request.body as BodyInit | undefined,
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        text,
        json: parse(text),
      };
    },
    close,
  };
}
