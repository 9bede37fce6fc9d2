/**
 * The CLI's only way to the server: the public HTTP API under `/api/v2`, over TLS (a plain
 * `http://` URL is refused except on loopback, where nothing leaves the machine). Every error
 * answer becomes one readable line with its code, and the exit code its status calls for.
 */
import { BlockList, isIP } from 'node:net';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';
import { parseAnswer, type RequestLabel, readBounded, requestFailure } from './http-answer.js';
import { DEFAULT_LIMITS, type RequestLimits } from './request-limits.js';

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
  // A spent ID token (409 token_replayed) is refused as a credential, as a 401 is.
  if (status === 401 || status === 403 || code === 'token_replayed') return EXIT.refused;
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
  /**
   * Sends a GET and resolves with the streamed answer (a download, written out as it arrives): the
   * time limit bounds the wait for its headers and then for each piece of its body.
   */
  stream(path: string): Promise<Response>;
}

/** Most characters of a server's error message printed. */
const MAX_MESSAGE = 1_000;

/** A request under its timer: the signal to send with, whether the timer ended it, and its control. */
function timed(timeoutMs: number) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const state = {
    signal: controller.signal,
    timedOut: false,
    /** (Re)starts the timer. Unref'd: a download nobody reads any more must not keep the CLI alive. */
    arm() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        state.timedOut = true;
        controller.abort(new Error(`no data for ${timeoutMs / 1000} s (--timeout, LATCHKEY_TIMEOUT)`));
      }, timeoutMs);
      timer.unref();
    },
    stop: () => clearTimeout(timer),
  };
  state.arm();
  return state;
}

/** `response` with its body passed through as read, each piece restarting the timer. */
function watched(response: Response, timer: ReturnType<typeof timed>): Response {
  timer.arm();
  const body = response.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        timer.arm();
        controller.enqueue(chunk);
      },
      flush: () => timer.stop(),
    }),
  );
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * The client of one server. What a server answers is not trusted: every answer read whole is
 * bounded by `limits` in time and bytes, and any failure is one line (see `http-answer.ts`).
 */
export function createHttpClient(
  baseUrl: URL,
  token: string | undefined,
  limits: RequestLimits = DEFAULT_LIMITS,
): HttpClient {
  const root = `${baseUrl.origin}${baseUrl.pathname.replace(/\/+$/, '')}/api/v2`;
  const { timeoutMs, maxResponseBytes } = limits;
  const send = async (method: string, path: string, body?: unknown) => {
    const label: RequestLabel = { origin: baseUrl.origin, what: `${method} ${path.split('?')[0]}` };
    const timer = timed(timeoutMs);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'latchkey-cli' };
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(`${root}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: timer.signal,
      });
      return { response, label, timer };
    } catch (error) {
      timer.stop();
      throw requestFailure(error, label, { timedOut: timer.timedOut, reading: false, timeoutMs });
    }
  };
  /** The whole answer as text, within the limits; the timer stops once it is read. */
  const read = async ({ response, label, timer }: Awaited<ReturnType<typeof send>>) => {
    try {
      return await readBounded(response, maxResponseBytes, label);
    } catch (error) {
      throw requestFailure(error, label, { timedOut: timer.timedOut, reading: true, timeoutMs });
    } finally {
      timer.stop();
    }
  };
  const fail = async (sent: Awaited<ReturnType<typeof send>>): Promise<never> => {
    const { response } = sent;
    let body: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(await read(sent)) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as typeof body;
    } catch {
      // Not ours (a proxy's page, a broken or oversized answer): the status says enough.
    }
    const error = body['error'] as { code?: unknown; message?: unknown } | undefined;
    throw new ApiError(
      response.status,
      typeof error?.code === 'string' ? error.code : 'http_error',
      // A message is a sentence: one a server made a megabyte long is cut, not printed whole.
      typeof error?.message === 'string'
        ? error.message.slice(0, MAX_MESSAGE)
        : `The server answered ${response.status} ${response.statusText.slice(0, MAX_MESSAGE)}.`,
      body,
    );
  };
  return {
    async json<T>(method: string, path: string, body?: unknown) {
      const sent = await send(method, path, body);
      if (!sent.response.ok) return fail(sent);
      return parseAnswer(await read(sent), sent.label) as T;
    },
    async stream(path: string) {
      const sent = await send('GET', path);
      const { response, timer } = sent;
      if (!response.ok) return fail(sent);
      if (!response.body) {
        timer.stop();
        return response;
      }
      return watched(response, timer);
    },
  };
}
