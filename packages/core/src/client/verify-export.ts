/**
 * `verifyActivityExport`: checks an NDJSON activity export line by line and names the first bad
 * line and why. Each line's hash must match its content, each line must chain to the one before,
 * the first line must be the chain's first event (unless the caller says the export is partial),
 * every line must name the organization the caller expects, and, with the organization's audit
 * public key, the closing checkpoint must be signed by that key and name the last event: so an
 * edited, deleted, reordered, truncated, front-cut, borrowed or wholesale-rewritten log is caught,
 * not only an edited line.
 */
import { type ChainHead, GENESIS_HASH } from '../activity/chain-form.js';
import type { Checkpoint } from '../activity/checkpoint/checkpoint-form.js';
import type { ActivityEvent } from '../model/model.js';
import type { ChainCrypto } from './chain-crypto.js';
import { type ParsedLine, parsedLines } from './export-line.js';
import type { ExportSource } from './export-lines.js';
import { checkExportNote } from './export-note.js';
import { ExportProofs } from './export-proofs.js';
import { type ExportVerdict, fail } from './export-verdict.js';
import { OrganizationCheck } from './organization-check.js';

export type { ExportFault, ExportVerdict } from './export-verdict.js';

/** Options of `verifyActivityExport`. */
export interface VerifyExportOptions {
  /**
   * The slug of the organization whose log this is meant to be. Every event and the checkpoint
   * must name it, so one organization's intact export cannot pass for another's.
   */
  organization: string;
  /**
   * The organization's audit public key (raw base64url or SPKI PEM), pinned out of band. With it,
   * the export must end with a checkpoint that this key signed and that names its last event, and
   * the C2SP note that line carries (exports made before notes have none) must open with this key
   * as the organization's log and name the same tree head.
   */
  publicKey?: string;
  /**
   * The export may start after the chain's first event (an export with `since`). Without it, the
   * first event must be `seq` 1 after the genesis hash, so a copy with its first lines cut fails.
   * Either way, the lines must chain to each other and the checkpoint must name the last one.
   */
  partial?: boolean;
}

/** What the lines so far have shown: the last event, a jump in seq waiting for its next line, the checkpoint. */
interface ExportState {
  previous: { event: ActivityEvent; line: number } | null;
  gap: { line: number; seq: number } | null;
  checkpoint: { value: Checkpoint; line: number } | null;
  events: number;
  owner: OrganizationCheck;
  crypto: ChainCrypto;
  proofs: ExportProofs;
}

/**
 * Verifies an NDJSON export (a string, bytes, or a stream of chunks such as a file read stream or
 * a `fetch` body) of `options.organization`. A full export (no filter) is checked from the genesis
 * of the chain; one exported with `since` only with `partial`, from its first line on, which it has
 * to trust. An export filtered by `type` or `until` has gaps or ends before its checkpoint's head,
 * unless it carries its proofs: then each event is checked on its own, against the Merkle root
 * hash the closing checkpoint signs, by the `{"inclusion": ...}` line after it (the server adds
 * them to every filtered export), and the events may skip positions of the chain. `crypto` gives
 * the hash and signature check: the entries' `verifyActivityExport` pass Node's
 * (`node-chain-crypto.ts`) or WebCrypto's.
 */
export async function verifyExportWith(
  crypto: ChainCrypto,
  source: ExportSource,
  options: VerifyExportOptions,
): Promise<ExportVerdict> {
  const state: ExportState = {
    previous: null,
    gap: null,
    checkpoint: null,
    events: 0,
    owner: new OrganizationCheck(options.organization),
    crypto,
    proofs: new ExportProofs(),
  };
  let lines = 0;
  for await (const line of parsedLines(source, crypto)) {
    lines = line.number;
    if (line.parsed === null) continue;
    const fault = await takeLine(state, line.parsed, line.number, options);
    if (fault) return fault;
  }
  return await verdictAtEnd(state, lines, options);
}

/** Takes one non-blank line into `state`; the verdict when it fails. */
async function takeLine(
  state: ExportState,
  parsed: ParsedLine,
  number: number,
  options: VerifyExportOptions,
): Promise<ExportVerdict | null> {
  if (state.checkpoint) return fail(number, 'malformed', 'Nothing may follow the checkpoint line.');
  if (parsed.kind === 'inclusion') return state.proofs.inclusion(parsed.value, number);
  // Any other line after an event says whether that event had its proof.
  const settled = state.proofs.end(number);
  if (settled) return settled;
  if (parsed.kind === 'fault') return parsed.verdict;
  if (parsed.kind === 'checkpoint') {
    state.checkpoint = { value: parsed.value, line: number };
    return null;
  }
  const { event } = parsed;
  const alone = checkEventAlone(await parsed.hash, event, number);
  if (alone) return alone;
  if (state.previous === null && options.partial !== true && event.seq !== 1) {
    // Excused only by an inclusion line after it: the export is a filtered one.
    state.proofs.pendingStart = fail(
      number,
      'deleted',
      `The export starts at seq ${event.seq}: the events before it are missing. Only an export made with since starts later; verify it as partial.`,
    );
  }
  state.proofs.event(event, number);
  const foreign = state.owner.event(event, number);
  if (foreign) return fail(foreign.line, 'wrong_organization', foreign.message);
  if (state.gap) {
    // The line after a jump in seq tells a deletion from a swap.
    if (event.seq < state.gap.seq) {
      return fail(
        state.gap.line,
        'reordered',
        `Event seq ${state.gap.seq} comes before events it should follow.`,
      );
    }
    return missingBefore(state.gap);
  }
  return follow(state, event, number);
}

/** The event on its own: its hash and its genesis link. */
function checkEventAlone(contentHash: string, event: ActivityEvent, number: number): ExportVerdict | null {
  // The line on its own: its hash must be the one its content, seq and prev_hash give (seq 1 is
  // placed after the genesis hash, so another prev_hash fails here too).
  const resealedPrev = event.seq === 1 ? GENESIS_HASH : event.prev_hash;
  if (contentHash !== event.hash || resealedPrev !== event.prev_hash) {
    return fail(number, 'edited', `The content of event seq ${event.seq} does not match its hash.`);
  }
  if (event.seq === 1 && event.prev_hash !== GENESIS_HASH) {
    return fail(number, 'edited', 'The first event of a chain must follow the genesis hash.');
  }
  return null;
}

/** The event after the previous one: in order, chained to it, or after a jump noted as a gap. */
function follow(state: ExportState, event: ActivityEvent, number: number): ExportVerdict | null {
  const { previous } = state;
  if (previous) {
    if (event.seq <= previous.event.seq) {
      return fail(number, 'reordered', `Event seq ${event.seq} comes after seq ${previous.event.seq}.`);
    }
    if (event.seq > previous.event.seq + 1) {
      // A filtered export skips events; each of its events is proved against the tree instead.
      if (state.proofs.mode !== 'proved') state.gap = { line: number, seq: event.seq };
    } else if (event.prev_hash !== previous.event.hash) {
      // Both lines are consistent on their own, so the earlier one was rewritten and re-hashed.
      return fail(
        previous.line,
        'edited',
        `Event seq ${previous.event.seq} is not the event seq ${event.seq} was chained to.`,
      );
    }
  }
  state.previous = { event, line: number };
  state.events++;
  return null;
}

const missingBefore = (gap: { line: number; seq: number }): ExportVerdict =>
  fail(gap.line, 'deleted', `Events are missing before seq ${gap.seq}.`);

/** The verdict once every line is read: no gap left, one organization, and the checkpoint. */
async function verdictAtEnd(
  state: ExportState,
  lines: number,
  options: VerifyExportOptions,
): Promise<ExportVerdict> {
  const settled = state.proofs.end(lines + 1);
  if (settled) return settled;
  if (state.gap) return missingBefore(state.gap);
  const carried = state.owner.end();
  if (carried) return fail(carried.line, 'wrong_organization', carried.message);
  const { checkpoint, previous } = state;
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
  const fault =
    state.proofs.mode === 'proved'
      ? ((await checkSignature(state.crypto, checkpoint, lines, options)) ??
        state.proofs.check(checkpoint, lines))
      : await checkCheckpoint(state.crypto, checkpoint, head, lines, options);
  if (fault) return fault;
  return { ok: true, events: state.events, head, checkpoint: checkpoint?.value ?? null };
}

/** With a key, the closing checkpoint must be there and signed by it, and so must its note. */
async function checkSignature(
  crypto: ChainCrypto,
  checkpoint: ExportState['checkpoint'],
  lines: number,
  { publicKey, organization }: VerifyExportOptions,
): Promise<ExportVerdict | null> {
  if (publicKey !== undefined) {
    if (!checkpoint) {
      return fail(
        lines + 1,
        'truncated',
        'The export ends without its checkpoint line: it may have been cut short.',
      );
    }
    if (!(await crypto.verifyCheckpoint(checkpoint.value, publicKey))) {
      return fail(
        checkpoint.line,
        'checkpoint_invalid',
        'The checkpoint is not signed by the given audit key.',
      );
    }
    return await checkExportNote(checkpoint, organization, publicKey);
  }
  return null;
}

/** The closing checkpoint: present and signed by the key when one is given, and naming `head`. */
async function checkCheckpoint(
  crypto: ChainCrypto,
  checkpoint: ExportState['checkpoint'],
  head: ChainHead,
  lines: number,
  options: VerifyExportOptions,
): Promise<ExportVerdict | null> {
  const unsigned = await checkSignature(crypto, checkpoint, lines, options);
  if (unsigned) return unsigned;
  if (!checkpoint) return null;
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
  return null;
}
