/**
 * Reading a server's answer without trusting it: at most the configured bytes (refused from its
 * `Content-Length` before reading, or as soon as more arrives), UTF-8 that decodes, JSON that
 * parses, and every way a request can fail (refused connection, TLS, time out, an answer that
 * breaks off) turned into one line that says which.
 */
import { CliError } from './exit-codes.js';

/** What a request is, for messages: `GET /organizations/acme/…` to `https://host`. */
export interface RequestLabel {
  origin: string;
  what: string;
}

const MiB = 1_048_576;
const size = (bytes: number) =>
  bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${(bytes / MiB).toFixed(2)} MiB`;

/** The refusal of an answer over `limit` bytes. */
function tooLarge(label: RequestLabel, limit: number): CliError {
  return new CliError(
    `The answer of ${label.origin} to ${label.what} is over ${size(limit)}: not read (raise the limit with --max-response-mb or LATCHKEY_MAX_RESPONSE_MB).`,
  );
}

/** The body of `response` as text, reading at most `limit` bytes. Read failures reject as they come. */
export async function readBounded(response: Response, limit: number, label: RequestLabel): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(label, limit);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(label, limit);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new CliError(`The answer of ${label.origin} to ${label.what} is not UTF-8 text.`);
  }
}

/** `text` parsed as JSON (empty: null), or a one-line refusal naming the request. */
export function parseAnswer(text: string, label: RequestLabel): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(
      `The answer of ${label.origin} to ${label.what} is not JSON (${(error as Error).message}).`,
    );
  }
}

/** The error code and message of a failed fetch or body read (undici puts them in `cause`). */
function causeOf(error: unknown): { code?: string; message: string } {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return { code: cause?.code, message: cause?.message ?? (error as Error).message ?? String(error) };
}

/** TLS failures: certificate checks and handshakes (Node's and OpenSSL's codes). */
const TLS = /CERT|SSL|TLS|SELF_SIGNED|SIGNATURE|UNABLE_TO_(GET|VERIFY)|ALTNAME|HANDSHAKE/;

/**
 * The line for a request that failed before or while its answer was read: `timedOut` says the
 * request's own timer ended it, `reading` that the answer had begun.
 */
export function requestFailure(
  error: unknown,
  label: RequestLabel,
  { timedOut, reading, timeoutMs }: { timedOut: boolean; reading: boolean; timeoutMs: number },
): CliError {
  if (error instanceof CliError) return error;
  if (timedOut) {
    return new CliError(
      `No complete answer from ${label.origin} to ${label.what} within ${timeoutMs / 1000} s (raise it with --timeout or LATCHKEY_TIMEOUT).`,
    );
  }
  const { code, message } = causeOf(error);
  const reason = code && !message.includes(code) ? `${code}: ${message}` : message;
  if (code && TLS.test(code)) {
    return new CliError(
      `Cannot reach ${label.origin}: ${reason} (TLS failed: nothing was sent; a private CA is trusted through NODE_EXTRA_CA_CERTS).`,
    );
  }
  if (reading) return new CliError(`The answer of ${label.origin} to ${label.what} broke off: ${reason}`);
  return new CliError(`Cannot reach ${label.origin}: ${reason}`);
}
