const HEX = '0123456789abcdef';

/** Lowercase hex of bytes (used where `Buffer` does not exist). */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    out += HEX[b >> 4]! + HEX[b & 15]!;
  }
  return out;
}

// Value of each ASCII code as a lowercase hex digit, -1 for anything else (uppercase included).
const NIBBLE = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) NIBBLE[0x30 + c] = c;
for (let c = 0; c < 6; c++) NIBBLE[0x61 + c] = 10 + c;

/**
 * Parses an `X-Service-Signature` value: exactly `sha256=` + 64 lowercase hex digits (the same language
 * as `SIGNATURE_PATTERN`), decoded into the 32 bytes of `out` in the same pass. False for anything else.
 */
export function parseSignature(value: string, out: Uint8Array): boolean {
  if (value.length !== 71 || !value.startsWith('sha256=')) return false;
  let bad = 0;
  for (let i = 0, j = 7; i < 32; i++, j += 2) {
    const a = value.charCodeAt(j);
    const b = value.charCodeAt(j + 1);
    const hi = a < 128 ? NIBBLE[a]! : -1;
    const lo = b < 128 ? NIBBLE[b]! : -1;
    bad |= hi | lo;
    out[i] = (hi << 4) | lo;
  }
  return bad >= 0;
}

/**
 * Parses `X-Service-Timestamp`: plain decimal digits, no sign, no leading zero, at most 15 digits (the
 * language of `TIMESTAMP_PATTERN`). Returns the value, or -1 for anything else.
 */
export function parseTimestamp(value: string): number {
  const n = value.length;
  if (n === 0 || n > 15 || (n > 1 && value.charCodeAt(0) === 0x30)) return -1;
  let result = 0;
  for (let i = 0; i < n; i++) {
    const digit = value.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    result = result * 10 + digit;
  }
  return result;
}

/** base64url without padding, for secrets (used where `Buffer` does not exist). */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
