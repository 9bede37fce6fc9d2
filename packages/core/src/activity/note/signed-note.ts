/**
 * The C2SP signed-note format (https://c2sp.org/signed-note), to the byte: the text (UTF-8 without
 * control characters other than newline, ending with a newline), a blank line, then one line per
 * signature, `— <key name> <base64(4-byte key hash || signature)>` with U+2014 before the name.
 */
import { concatBytes, fromBase64, toBase64 } from '../../encoding/base64.js';
import { isNoteSafe, isValidKeyName } from './note-key.js';

/** One signature line of a note. */
export interface NoteSignature {
  /** The key name. */
  name: string;
  /** The 4-byte key hash that starts the line's value. */
  keyHash: Uint8Array;
  /** The rest of the value: a signature, or for a cosignature its timestamp and signature. */
  signature: Uint8Array;
}

/** A note split into its text and signature lines. */
export interface ParsedNote {
  /** The signed text, its final newline included. */
  text: string;
  signatures: NoteSignature[];
}

/** Most signature lines a note may carry, as in Go's `note.Open`: a bound on verifying work. */
const MAX_NOTE_SIGNATURES = 100;

const SIGNATURE_PREFIX = '\u2014 ';

/** Whether `text` may be a note's text: well-formed, no control characters but newline, ends with one. */
function isValidNoteText(text: string): boolean {
  return text.endsWith('\n') && isNoteSafe(text, true);
}

/** A signature line, newline included. */
export function signatureLine(signature: NoteSignature): string {
  return `${SIGNATURE_PREFIX}${signature.name} ${toBase64(concatBytes(signature.keyHash, signature.signature))}\n`;
}

/** The note of `text` with `signatures`, in the order given. */
export function formatNote(text: string, signatures: readonly NoteSignature[]): string {
  if (!isValidNoteText(text))
    throw new TypeError('A note text must end with a newline and hold no control characters.');
  return `${text}\n${signatures.map(signatureLine).join('')}`;
}

/**
 * Parses the value of a signature line (`— <name> <base64>` without its newline); null when it is
 * malformed or its value is shorter than a key hash and one byte.
 */
export function parseSignatureLine(line: string): NoteSignature | null {
  if (!line.startsWith(SIGNATURE_PREFIX)) return null;
  const rest = line.slice(SIGNATURE_PREFIX.length);
  const space = rest.indexOf(' ');
  if (space === -1) return null;
  const name = rest.slice(0, space);
  const value = fromBase64(rest.slice(space + 1));
  if (!isValidKeyName(name) || !value || value.length < 5) return null;
  return { name, keyHash: value.slice(0, 4), signature: value.slice(4) };
}

/**
 * Splits a note into its text and signatures, as Go's `note.Open` reads it: the signature block
 * follows the last blank line and every one of its lines must be a signature line. Null when the
 * note is malformed (nothing is verified here).
 */
export function parseNote(note: string): ParsedNote | null {
  if (!isValidNoteText(note)) return null;
  const split = note.lastIndexOf('\n\n');
  if (split === -1) return null;
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES) return null;
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    const signature = parseSignatureLine(line);
    if (!signature) return null;
    signatures.push(signature);
  }
  return { text, signatures };
}
