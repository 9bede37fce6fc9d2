/**
 * The lines of an export, parsed (an event, an inclusion proof, the checkpoint, or a fault), each
 * event's hash started ahead of the walk: hashes of different lines do not depend on each other, so
 * with WebCrypto (an asynchronous call per hash) a window of lines is hashed at once while the walk
 * checks them in order. With Node's synchronous hash this only reads a little ahead.
 */
import type { Checkpoint } from '../activity/checkpoint/checkpoint-form.js';
import type { ActivityEvent } from '../model/model.js';
import { type ChainCrypto, eventChainText } from './chain-crypto.js';
import { type ExportSource, linesOf } from './export-lines.js';
import { type ExportVerdict, fail } from './export-verdict.js';

/** A line `{"inclusion": {...}}` of a filtered export: the audit path of the event before it. */
export interface InclusionLine {
  seq: number;
  leaf_index: number;
  tree_size: number;
  hashes: string[];
}

/** One line, parsed: a failure, a checkpoint, an inclusion proof or an event (with its content's hash, maybe still coming). */
export type ParsedLine =
  | { kind: 'fault'; verdict: ExportVerdict }
  | { kind: 'checkpoint'; value: Checkpoint }
  | { kind: 'inclusion'; value: InclusionLine }
  | { kind: 'event'; event: ActivityEvent; hash: string | Promise<string> };

/** A line of the export by its number (from 1); null for a blank line. */
export interface NumberedLine {
  number: number;
  parsed: ParsedLine | null;
}

/** Lines hashed ahead of the walk. */
const WINDOW = 256;

/** An object with a whole-number `seq`, as both kinds of line have. */
function hasSeq(value: unknown): value is { seq: number } {
  return typeof value === 'object' && value !== null && Number.isSafeInteger((value as { seq: unknown }).seq);
}

function isEvent(value: unknown): value is ActivityEvent {
  const e = value as ActivityEvent;
  return hasSeq(e) && e.seq >= 1 && typeof e.hash === 'string' && typeof e.prev_hash === 'string';
}

function isInclusion(value: unknown): value is InclusionLine {
  const p = value as InclusionLine;
  return (
    hasSeq(p) &&
    Number.isSafeInteger(p.leaf_index) &&
    Number.isSafeInteger(p.tree_size) &&
    Array.isArray(p.hashes) &&
    p.hashes.every((h) => typeof h === 'string')
  );
}

/** A line as JSON: a checkpoint line, an inclusion line or an event, whose hash is started now. */
function parseLine(text: string, number: number, crypto: ChainCrypto): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'fault', verdict: fail(number, 'malformed', 'The line is not JSON.') };
  }
  if (typeof value === 'object' && value !== null && 'checkpoint' in value) {
    const signed = (value as { checkpoint: unknown }).checkpoint;
    if (typeof signed !== 'object' || signed === null) {
      return {
        kind: 'fault',
        verdict: fail(number, 'malformed', 'The checkpoint line holds no checkpoint.'),
      };
    }
    return { kind: 'checkpoint', value: signed as Checkpoint };
  }
  if (typeof value === 'object' && value !== null && 'inclusion' in value) {
    const proof = (value as { inclusion: unknown }).inclusion;
    if (!isInclusion(proof)) {
      return { kind: 'fault', verdict: fail(number, 'malformed', 'The inclusion line holds no proof.') };
    }
    return { kind: 'inclusion', value: proof };
  }
  if (!isEvent(value)) {
    return {
      kind: 'fault',
      verdict: fail(number, 'malformed', 'The line is neither an event nor a checkpoint.'),
    };
  }
  const hash = crypto.sha256Hex(eventChainText(value));
  // Awaited in order later; until then a failure must not count as unhandled.
  if (typeof hash !== 'string') hash.catch(() => undefined);
  return { kind: 'event', event: value, hash };
}

/** The numbered lines of `source`, parsed up to {@link WINDOW} lines ahead of the consumer. */
export async function* parsedLines(source: ExportSource, crypto: ChainCrypto): AsyncGenerator<NumberedLine> {
  const ahead: NumberedLine[] = [];
  let number = 0;
  for await (const text of linesOf(source)) {
    number++;
    ahead.push({ number, parsed: text.trim() === '' ? null : parseLine(text, number, crypto) });
    if (ahead.length >= WINDOW) yield ahead.shift()!;
  }
  yield* ahead;
}
