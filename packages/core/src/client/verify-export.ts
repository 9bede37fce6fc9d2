/**
 * `verifyActivityExport`: checks an NDJSON activity export line by line and names the first bad
 * line and why. Each line's hash must match its content, each line must chain to the one before,
 * the first line must be the chain's first event (unless the caller says the export is partial),
 * every line must name the organization the caller expects, and, with the organization's audit
 * public key, the closing checkpoint must be signed by that key and name the last event: so an
 * edited, deleted, reordered, truncated, front-cut, borrowed or wholesale-rewritten log is caught,
 * not only an edited line.
 */
import { type ChainHead, GENESIS_HASH, sealEvent } from '../activity.js';
import { type Checkpoint, verifyCheckpoint } from '../checkpoint.js';
import type { ActivityDraft, ActivityEvent } from '../model.js';
import { OrganizationCheck } from './organization-check.js';

/** Why an export does not verify. */
export type ExportFault =
  /** Not JSON, or not an event or checkpoint. */
  | 'malformed'
  /** The line's content does not match its hash, or a later line was chained to other content. */
  | 'edited'
  /** Events are missing before this line. */
  | 'deleted'
  /** This line is out of order. */
  | 'reordered'
  /** The export ends before the event its checkpoint names, or without the checkpoint. */
  | 'truncated'
  /** The checkpoint is not signed by the given key, or names another head than the last event. */
  | 'checkpoint_invalid'
  /** An event or the checkpoint names another organization than the one expected. */
  | 'wrong_organization';

export type ExportVerdict =
  | {
      ok: true;
      /** Events checked. */
      events: number;
      /** The last event's place in the chain (0 for none). */
      head: ChainHead;
      /** The closing checkpoint, when the export has one (verified when a key was given). */
      checkpoint: Checkpoint | null;
    }
  | { ok: false; line: number; reason: ExportFault; message: string };

/** Options of {@link verifyActivityExport}. */
export interface VerifyExportOptions {
  /**
   * The slug of the organization whose log this is meant to be. Every event and the checkpoint
   * must name it, so one organization's intact export cannot pass for another's.
   */
  organization: string;
  /**
   * The organization's audit public key (raw base64url or SPKI PEM), pinned out of band. With it,
   * the export must end with a checkpoint that this key signed and that names its last event.
   */
  publicKey?: string;
  /**
   * The export may start after the chain's first event (an export with `since`). Without it, the
   * first event must be `seq` 1 after the genesis hash, so a copy with its first lines cut fails.
   * Either way, the lines must chain to each other and the checkpoint must name the last one.
   */
  partial?: boolean;
}

type Source = string | Uint8Array | AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

/** The lines of `source`, one at a time, without holding the whole export. */
async function* linesOf(source: Source): AsyncGenerator<string> {
  const chunks = typeof source === 'string' || source instanceof Uint8Array ? [source] : source;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let rest = '';
  for await (const chunk of chunks as AsyncIterable<string | Uint8Array>) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline = rest.indexOf('\n');
    while (newline !== -1) {
      yield rest.slice(0, newline);
      rest = rest.slice(newline + 1);
      newline = rest.indexOf('\n');
    }
  }
  rest += decoder.decode();
  if (rest !== '') yield rest;
}

const fail = (line: number, reason: ExportFault, message: string): ExportVerdict => ({
  ok: false,
  line,
  reason,
  message,
});

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

/**
 * Verifies an NDJSON export (a string, bytes, or a stream of chunks such as a file read stream or
 * a `fetch` body) of `options.organization`. A full export (no filter) is checked from the genesis
 * of the chain; one exported with `since` only with `partial`, from its first line on, which it has
 * to trust. An export filtered by `type` or `until` has gaps or ends before its checkpoint's head,
 * so it does not verify: verify the full export.
 */
export async function verifyActivityExport(
  source: Source,
  options: VerifyExportOptions,
): Promise<ExportVerdict> {
  let number = 0;
  let previous: { event: ActivityEvent; line: number } | null = null;
  let gap: { line: number; seq: number } | null = null;
  let checkpoint: { value: Checkpoint; line: number } | null = null;
  let events = 0;
  const owner = new OrganizationCheck(options.organization);
  for await (const text of linesOf(source)) {
    number++;
    if (text.trim() === '') continue;
    if (checkpoint) return fail(number, 'malformed', 'Nothing may follow the checkpoint line.');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return fail(number, 'malformed', 'The line is not JSON.');
    }
    if (typeof value === 'object' && value !== null && 'checkpoint' in value) {
      const signed = (value as { checkpoint: unknown }).checkpoint;
      if (typeof signed !== 'object' || signed === null) {
        return fail(number, 'malformed', 'The checkpoint line holds no checkpoint.');
      }
      checkpoint = { value: signed as Checkpoint, line: number };
      continue;
    }
    if (!isEvent(value)) return fail(number, 'malformed', 'The line is neither an event nor a checkpoint.');
    const event = value;
    const { hash, ...content } = event;
    // The line on its own: its hash must be the one its content, seq and prev_hash give.
    const resealed = sealEvent(
      content as ActivityDraft,
      event.seq === 1 ? null : { seq: event.seq - 1, hash: event.prev_hash },
    );
    if (resealed.hash !== hash || resealed.prev_hash !== event.prev_hash) {
      return fail(number, 'edited', `The content of event seq ${event.seq} does not match its hash.`);
    }
    if (event.seq === 1 && event.prev_hash !== GENESIS_HASH) {
      return fail(number, 'edited', 'The first event of a chain must follow the genesis hash.');
    }
    if (!previous && event.seq !== 1 && options.partial !== true) {
      return fail(
        number,
        'deleted',
        `The export starts at seq ${event.seq}: the events before it are missing. Only an export made with since starts later; verify it as partial.`,
      );
    }
    const foreign = owner.event(event, number);
    if (foreign) return fail(foreign.line, 'wrong_organization', foreign.message);
    if (gap) {
      // The line after a jump in seq tells a deletion from a swap.
      if (event.seq < gap.seq) {
        return fail(gap.line, 'reordered', `Event seq ${gap.seq} comes before events it should follow.`);
      }
      return fail(gap.line, 'deleted', `Events are missing before seq ${gap.seq}.`);
    }
    if (previous) {
      const expected = previous.event.seq + 1;
      if (event.seq <= previous.event.seq) {
        return fail(number, 'reordered', `Event seq ${event.seq} comes after seq ${previous.event.seq}.`);
      }
      if (event.seq > expected) {
        gap = { line: number, seq: event.seq };
        previous = { event, line: number };
        events++;
        continue;
      }
      if (event.prev_hash !== previous.event.hash) {
        // Both lines are consistent on their own, so the earlier one was rewritten and re-hashed.
        return fail(
          previous.line,
          'edited',
          `Event seq ${previous.event.seq} is not the event seq ${event.seq} was chained to.`,
        );
      }
    }
    previous = { event, line: number };
    events++;
  }
  if (gap) return fail(gap.line, 'deleted', `Events are missing before seq ${gap.seq}.`);
  const carried = owner.end();
  if (carried) return fail(carried.line, 'wrong_organization', carried.message);
  if (checkpoint && checkpoint.value.organization !== options.organization) {
    return fail(
      checkpoint.line,
      'wrong_organization',
      `The checkpoint is for organization ${JSON.stringify(checkpoint.value.organization)}, not ${JSON.stringify(options.organization)}.`,
    );
  }
  const head: ChainHead = previous
    ? { seq: previous.event.seq, hash: previous.event.hash }
    : { seq: 0, hash: GENESIS_HASH };
  if (options.publicKey !== undefined) {
    if (!checkpoint) {
      return fail(
        number + 1,
        'truncated',
        'The export ends without its checkpoint line: it may have been cut short.',
      );
    }
    if (!verifyCheckpoint(checkpoint.value, options.publicKey)) {
      return fail(
        checkpoint.line,
        'checkpoint_invalid',
        'The checkpoint is not signed by the given audit key.',
      );
    }
  }
  if (checkpoint) {
    const signed = checkpoint.value;
    if (signed.seq > head.seq) {
      return fail(
        checkpoint.line,
        'truncated',
        `The checkpoint names seq ${signed.seq}; the export ends at seq ${head.seq}.`,
      );
    }
    if (signed.seq !== head.seq || signed.hash !== head.hash) {
      return fail(
        checkpoint.line,
        'checkpoint_invalid',
        'The checkpoint names another chain head than the last event.',
      );
    }
  }
  return { ok: true, events, head, checkpoint: checkpoint?.value ?? null };
}
