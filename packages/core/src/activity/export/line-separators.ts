/**
 * NDJSON lines with U+2028, U+2029 and U+0085 written as `\u2028`, `\u2029` and `\u0085`. JSON
 * allows them raw inside strings, but many line splitters (Python's `str.splitlines`, editors,
 * some log shippers) end a line at each, and would see more lines than there are events. JSON
 * escapes them to the same string, so the parsed event, and the hash over its JCS form, are
 * unchanged. Every other character `splitlines` breaks on is below U+0020, which JSON always
 * escapes. The three can only stand inside JSON strings (they are not JSON white space), and a raw
 * one never follows a backslash in valid JSON, so replacing each raw one is always an escape.
 */
import { joinBytes } from '../../encoding/base64.js';

const SEPARATORS = /[\u2028\u2029\u0085]/g;
const ESCAPED: Record<string, string> = {
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
  '\u0085': '\\u0085',
};

const encoder = new TextEncoder();
const ESCAPED_U2028 = encoder.encode('\\u2028');
const ESCAPED_U2029 = encoder.encode('\\u2029');
const ESCAPED_U0085 = encoder.encode('\\u0085');

/** The UTF-8 sequence starting at `at` if it is one of the three, with its escape. */
function separatorAt(bytes: Uint8Array, at: number): { length: number; escape: Uint8Array } | null {
  if (bytes[at] === 0xc2) return bytes[at + 1] === 0x85 ? { length: 2, escape: ESCAPED_U0085 } : null;
  if (bytes[at + 1] !== 0x80) return null;
  if (bytes[at + 2] === 0xa8) return { length: 3, escape: ESCAPED_U2028 };
  if (bytes[at + 2] === 0xa9) return { length: 3, escape: ESCAPED_U2029 };
  return null;
}

/**
 * UTF-8 bytes: only the lead bytes 0xC2 (U+0085) and 0xE2 (U+2028/9) are looked at, each found
 * with `indexOf` and remembered until passed, so a chunk is scanned once whatever it holds.
 */
function escapeBytes(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let start = 0;
  let c2 = bytes.indexOf(0xc2);
  let e2 = bytes.indexOf(0xe2);
  while (c2 !== -1 || e2 !== -1) {
    const at = c2 === -1 ? e2 : e2 === -1 ? c2 : Math.min(c2, e2);
    const found = separatorAt(bytes, at);
    const next = found ? at + found.length : at + 1;
    if (found) {
      parts.push(bytes.subarray(start, at), found.escape);
      start = next;
    }
    if (c2 !== -1 && c2 < next) c2 = bytes.indexOf(0xc2, next);
    if (e2 !== -1 && e2 < next) e2 = bytes.indexOf(0xe2, next);
  }
  if (parts.length === 0) return bytes;
  parts.push(bytes.subarray(start));
  return joinBytes(parts);
}

/** A chunk of NDJSON (whole lines, text or UTF-8 bytes) with the three separators escaped. */
export function escapeLineSeparators(chunk: string | Uint8Array): string | Uint8Array {
  return typeof chunk === 'string' ? chunk.replace(SEPARATORS, (c) => ESCAPED[c]!) : escapeBytes(chunk);
}
