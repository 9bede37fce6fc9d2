/**
 * How the HTTP conformance suite talks to a server: in-process through `core.handle`, or over a real
 * loopback port through any adapter. The suite is written once against this interface.
 */
import type { Core, CoreResponse } from '@latchkey/core';

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

/** The whole body of a core response as text, a streamed one included. */
async function bodyText(body: CoreResponse['body']): Promise<string> {
  if (body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  let text = '';
  for await (const chunk of body)
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text;
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
    const text = await bodyText(response.body);
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
