/** One line of an NDJSON activity export, parsed: an event, an inclusion proof, the checkpoint, or a fault. */
import type { Checkpoint } from '../activity/checkpoint.js';
import type { ActivityEvent } from '../model.js';
import { type ExportVerdict, fail } from './export-verdict.js';

/** A line `{"inclusion": {...}}` of a filtered export: the audit path of the event before it. */
export interface InclusionLine {
  seq: number;
  leaf_index: number;
  tree_size: number;
  hashes: string[];
}

/** One line, parsed. */
export type ParsedLine =
  | { kind: 'fault'; verdict: ExportVerdict }
  | { kind: 'checkpoint'; value: Checkpoint }
  | { kind: 'inclusion'; value: InclusionLine }
  | { kind: 'event'; event: ActivityEvent };

function isEvent(value: unknown): value is ActivityEvent {
  const e = value as ActivityEvent;
  return (
    typeof e === 'object' &&
    e !== null &&
    Number.isSafeInteger(e.seq) &&
    e.seq >= 1 &&
    typeof e.hash === 'string' &&
    typeof e.prev_hash === 'string'
  );
}

function isInclusion(value: unknown): value is InclusionLine {
  const p = value as InclusionLine;
  return (
    typeof p === 'object' &&
    p !== null &&
    Number.isSafeInteger(p.seq) &&
    Number.isSafeInteger(p.leaf_index) &&
    Number.isSafeInteger(p.tree_size) &&
    Array.isArray(p.hashes) &&
    p.hashes.every((h) => typeof h === 'string')
  );
}

/** A line as JSON: a checkpoint line, an inclusion line or an event. */
export function parseLine(text: string, number: number): ParsedLine {
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
  return { kind: 'event', event: value };
}
