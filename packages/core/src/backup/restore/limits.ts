/**
 * How much one staged restore may hold and read, so that a restore cannot fill the server's memory
 * or disk: the parts of a session never hold more bytes than its manifest declares, part numbers
 * stop at what those bytes allow and at a server maximum, and the reader holds at most one line.
 */
import { LatchkeyError } from '../../errors/latchkey-error.js';
import type { RestoreSession } from '../../store/types.js';
import { invalidBackup } from './reader.js';

/** The core option `restores`: limits of a staged restore. */
export interface RestoreLimitsOption {
  /**
   * Most parts one restore may have: `PUT …/parts/{part}` takes parts 0 to `maxParts - 1`, and a
   * manifest may declare no more bytes than so many parts can carry within the body limit. Default
   * 10,000 (about 10 GiB with the default body limit of 1 MiB).
   */
  maxParts?: number;
  /**
   * Longest line of backup content the commit reads, in UTF-8 bytes (newline not counted); a longer
   * one is 422 `backup_invalid` naming the line. Default 16 MiB: the largest a backup writes is a
   * secret of 1 MiB with every character escaped (6 MiB).
   */
  maxLineBytes?: number;
}

/** The limits in force: the option's values or their defaults, and the body limit they relate to. */
export interface RestoreLimits {
  maxParts: number;
  maxLineBytes: number;
  /** The most bytes a manifest may declare: `maxParts` parts, each within the body limit. */
  maxBytes: number;
}

/** The defaults of {@link RestoreLimitsOption}. */
export const RESTORE_LIMIT_DEFAULTS = { maxParts: 10_000, maxLineBytes: 16 * 1_048_576 } as const;

/** The limits of a core with this option and body limit; refuses values that are not positive integers. */
export function toRestoreLimits(option: RestoreLimitsOption = {}, bodyLimit: number): RestoreLimits {
  const maxParts = option.maxParts ?? RESTORE_LIMIT_DEFAULTS.maxParts;
  const maxLineBytes = option.maxLineBytes ?? RESTORE_LIMIT_DEFAULTS.maxLineBytes;
  for (const [name, value] of [
    ['maxParts', maxParts],
    ['maxLineBytes', maxLineBytes],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(`restores.${name} must be a positive integer, not ${value}`);
    }
  }
  return { maxParts, maxLineBytes, maxBytes: maxParts * bodyLimit };
}

/** Refuses a manifest declaring more bytes than a restore may hold on this server (413). */
export function checkDeclaredBytes(bytes: number, limits: RestoreLimits): void {
  if (bytes > limits.maxBytes) {
    throw new LatchkeyError(
      'payload_too_large',
      `The backup declares ${bytes} bytes; this server restores at most ${limits.maxBytes} (${limits.maxParts} parts within the body limit).`,
    );
  }
}

/**
 * Refuses a part number no restore of this session can have: past what the manifest's bytes allow,
 * a part holding one byte at least (422), or past the server's maximum (413).
 */
export function checkPartNumber(session: RestoreSession, index: number, limits: RestoreLimits): void {
  const { bytes } = session.manifest;
  if (index >= bytes) {
    throw invalidBackup(
      null,
      `part ${index} cannot exist: content of ${bytes} bytes has parts 0 to ${bytes - 1} at most`,
    );
  }
  if (index >= limits.maxParts) {
    throw new LatchkeyError(
      'payload_too_large',
      `Part ${index} is past the most parts this server takes in one restore: parts 0 to ${limits.maxParts - 1}.`,
    );
  }
}

/** The 422 of a part that would bring the session's parts past the bytes its manifest declares. */
export function tooManyBytes(index: number, total: number, declared: number): LatchkeyError {
  return invalidBackup(
    null,
    `part ${index} would bring the content to ${total} bytes, more than the ${declared} bytes its manifest declares`,
  );
}
