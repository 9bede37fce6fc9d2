/**
 * The CLI's only way to the server: the public HTTP API under `/api/v2`, over TLS (a plain
 * `http://` URL is refused except on loopback, where nothing leaves the machine). Every error
 * answer becomes one readable line with its code, and the exit code its status calls for.
 */
import { BlockList, isIP } from 'node:net';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';

/** An error answer of the API. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(`${code}: ${message} (HTTP ${status})`, exitCodeOf(status, code));
  }
}

function exitCodeOf(status: number, code: string): ExitCode {
  if (status === 401 || status === 403) return EXIT.refused;
  if (code === 'version_conflict' || code === 'if_version_required') return EXIT.conflict;
  if (code === 'backup_invalid') return EXIT.verification;
  return EXIT.failure;
}

/** The loopback addresses: 127.0.0.0/8 and ::1. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether a URL's host is this machine: `localhost`, or an address (not a name: `127.example.com`
 * is a name anyone can point anywhere) in 127.0.0.0/8 or ::1. The URL parser has already turned
 * `127.1`, `0x7f.0.0.1` and `[0:0:0:0:0:0:0:1]` into their plain forms.
 */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  const address = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The server's base URL, checked: https, or http on loopback only. */
export function checkServerUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(
      `The server URL "${raw}" is not a URL (give --url or LATCHKEY_URL, e.g. https://latchkey.example).`,
      EXIT.usage,
    );
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  if (url.protocol === 'http:') {
    throw new CliError(
      `Refusing plain http:// to ${url.host}: secrets travel only over TLS. Use https:// (plain http is allowed only to a loopback address: localhost, 127.0.0.0/8 or [::1]).`,
      EXIT.usage,
    );
  }
  throw new CliError(`The server URL must start with https:// (got ${url.protocol}).`, EXIT.usage);
}

export interface HttpClient {
  /** Sends a request and resolves with the JSON of a 2xx answer; rejects with an {@link ApiError}. */
  json<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** Sends a GET and resolves with the streamed answer (a download). */
  stream(path: string): Promise<Response>;
}

export function createHttpClient(baseUrl: URL, token: string | undefined): HttpClient {
  const root = `${baseUrl.origin}${baseUrl.pathname.replace(/\/+$/, '')}/api/v2`;
  const send = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'latchkey-cli' };
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await fetch(`${root}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(
        `Cannot reach ${baseUrl.origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      );
    }
  };
  const fail = async (response: Response): Promise<never> => {
    const text = await response.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Not ours (a proxy's page): the status says enough.
    }
    const error = body['error'] as { code?: string; message?: string } | undefined;
    throw new ApiError(
      response.status,
      error?.code ?? 'http_error',
      error?.message ?? `The server answered ${response.status} ${response.statusText}.`,
      body,
    );
  };
  return {
    async json<T>(method: string, path: string, body?: unknown) {
      const response = await send(method, path, body);
      if (!response.ok) return fail(response);
      const text = await response.text();
      return (text ? JSON.parse(text) : null) as T;
    },
    async stream(path: string) {
      const response = await send('GET', path);
      if (!response.ok) return fail(response);
      return response;
    },
  };
}
