/**
 * Custom headers of an audit webhook: the rules a name and a value must follow, and how a PATCH's
 * merge patch applies to the headers a webhook has. Receivers such as SIEM intakes want an API key
 * header; what a receiver relies on to read a delivery (framing, our signature headers, the Standard
 * Webhooks ones, trace context) cannot be replaced, so those names are refused.
 */

/** At most this many custom headers per webhook. */
export const MAX_CUSTOM_HEADERS = 10;
/** Longest header name, in characters. */
const MAX_HEADER_NAME = 100;
/** Longest header value, in characters (4 KiB). */
const MAX_HEADER_VALUE = 4_096;
/**
 * Most characters of all names and values together: what ten headers of the longest name and value
 * hold. Checked with the count before any entry is, so a request cannot make each of a million
 * entries (or one megabyte-long value) go through the per-entry rules.
 */
export const MAX_HEADERS_CHARACTERS = MAX_CUSTOM_HEADERS * (MAX_HEADER_NAME + MAX_HEADER_VALUE);

/** RFC 9110 `token`: the characters a field name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII and space, so no CR, LF or other control character can split a header. */
const VALUE = /^[\x20-\x7E]*$/;

/**
 * Names refused (lower case): hop-by-hop and framing headers the transport owns, the signature
 * headers of every scheme we send, and the trace context a delivery carries.
 */
const RESERVED = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'content-type',
  // The body is sent as signed, never re-encoded: a receiver told it is gzip would fail to read it.
  'content-encoding',
  'expect',
  'traceparent',
  'tracestate',
]);

/**
 * Prefixes refused (lower case): proxies' own headers, and the signature headers' namespaces (ours
 * and Standard Webhooks'), whole, so a header a future scheme adds is never one a webhook already sets.
 */
const RESERVED_PREFIXES = ['proxy-', 'x-service-', 'webhook-'];

/**
 * Why a `headers` object cannot be taken as a whole, or null: more than {@link MAX_CUSTOM_HEADERS}
 * entries, more than {@link MAX_HEADERS_CHARACTERS} characters, or a `__proto__` name (which JSON
 * gives as an own member but an object built from it would silently drop). Cheap on purpose: it
 * stops counting at the first entry past the bound and reads no entry's characters, so it runs
 * before the per-entry rules; `path` is the offending name, or empty for the whole list.
 */
export function headerListFault(headers: object): { path: string[]; message: string } | null {
  if (Object.hasOwn(headers, '__proto__')) {
    return { path: ['__proto__'], message: '__proto__ cannot be a header name' };
  }
  let count = 0;
  let characters = 0;
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    if (++count > MAX_CUSTOM_HEADERS) {
      return { path: [], message: `at most ${MAX_CUSTOM_HEADERS} custom headers` };
    }
    const value: unknown = (headers as Record<string, unknown>)[name];
    characters += name.length + (typeof value === 'string' ? value.length : 0);
  }
  if (characters > MAX_HEADERS_CHARACTERS) {
    return {
      path: [],
      message: `custom headers hold at most ${MAX_HEADERS_CHARACTERS} characters of names and values`,
    };
  }
  return null;
}

/** Why `text` cannot be a header's `part` (name or value): its length, then the characters it holds. */
function textFault(part: 'name' | 'value', text: string, max: number, allowed: RegExp, holds: string) {
  if (text.length === 0 || text.length > max) return `a header ${part} has 1 to ${max} characters`;
  return allowed.test(text) ? null : `a header ${part} holds only ${holds}`;
}

/** Why `name` cannot be a custom header's name, or null when it can. */
export function headerNameFault(name: string): string | null {
  const fault = textFault(
    'name',
    name,
    MAX_HEADER_NAME,
    TOKEN,
    "HTTP token characters (letters, digits, !#$%&'*+-.^_`|~)",
  );
  if (fault) return fault;
  const lower = name.toLowerCase();
  if (RESERVED.has(lower) || RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix))) {
    return `${lower} is set by the sender (framing, hop-by-hop, signature or trace headers cannot be replaced)`;
  }
  return null;
}

/** Why `value` cannot be a custom header's value, or null when it can. */
export function headerValueFault(value: string): string | null {
  const holds = 'visible ASCII and spaces (no CR, LF or control character)';
  const fault = textFault('value', value, MAX_HEADER_VALUE, VALUE, holds);
  if (fault) return fault;
  if (value.trim() !== value) return 'a header value neither starts nor ends with a space';
  return null;
}

/** The names of `names` that repeat another ignoring case (HTTP names are case-insensitive). */
export function duplicateNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    if (seen.has(lower)) repeated.push(name);
    seen.add(lower);
  }
  return repeated;
}

/**
 * Applies a PATCH's `headers` (a JSON merge patch, RFC 7396: a string sets or replaces the header of
 * that name, ignoring case; null removes it; names not given are kept) to the current names. Returns
 * the names after the patch, in order: kept ones first, then new ones as given.
 */
export function mergeHeaderNames(
  current: readonly string[],
  patch: Readonly<Record<string, string | null>>,
): { kept: string[]; set: string[] } {
  const patched = new Set(Object.keys(patch).map((name) => name.toLowerCase()));
  const kept = current.filter((name) => !patched.has(name.toLowerCase()));
  const set = Object.entries(patch)
    .filter(([, value]) => value !== null)
    .map(([name]) => name);
  return { kept, set };
}

/** The mask every webhook JSON shows in place of a header's value. */
export const MASKED_VALUE = '••••';
