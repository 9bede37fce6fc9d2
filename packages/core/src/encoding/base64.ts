/**
 * Standard base64 (RFC 4648 section 4, with padding), as the C2SP note formats use it, without
 * `Buffer`: these modules also run in a browser through `@latchkey/core/client`.
 */

const ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;

/** Bytes as standard padded base64. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Standard padded base64 as bytes, or null when the text is not its canonical form: a second
 * spelling of the same bytes (missing padding, stray bits) would let one signature line take two
 * forms.
 */
export function fromBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !ALPHABET.test(text)) return null;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return toBase64(bytes) === text ? bytes : null;
}

/** The concatenation of byte arrays. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  return joinBytes(parts);
}

/** The concatenation of a list of byte arrays, however long (no spread into arguments). */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
