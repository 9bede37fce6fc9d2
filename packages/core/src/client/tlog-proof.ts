/**
 * A C2SP transparency log proof (https://c2sp.org/tlog-proof), the file `latchkey activity prove
 * --out` writes: an entry's index, its RFC 6962 inclusion proof and the checkpoint note it is
 * against, with its cosignatures, so that anyone holding the log's (and witnesses') keys checks the
 * entry offline. The optional extra data carries the entry itself (for Latchkey, the RFC 8785 JSON
 * of the event: the leaf's data), which the proof authenticates through its leaf hash.
 */
import { toBase64 } from '../encoding/base64.js';

/** The first line of every proof. */
export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

/** What a proof is made of. */
export interface TlogProofInput {
  /** The zero-based index of the entry in the log (an event's `seq - 1`). */
  index: number;
  /** The inclusion proof, from the leaf's sibling up to the root's child: bytes, or standard base64. */
  hashes: readonly (Uint8Array | string)[];
  /** The checkpoint note the proof is against, verbatim (it ends with its last signature line's newline). */
  checkpoint: string;
  /** Opaque extra data (not authenticated by the proof itself); omitted when absent. */
  extra?: Uint8Array;
}

/** The text of a `c2sp.org/tlog-proof@v1` proof. */
export function formatTlogProof(input: TlogProofInput): string {
  if (!Number.isSafeInteger(input.index) || input.index < 0) {
    throw new RangeError('A tlog-proof index is a non-negative integer.');
  }
  if (!input.checkpoint.endsWith('\n') || !input.checkpoint.includes('\n\n')) {
    throw new RangeError('A tlog-proof ends with a whole checkpoint note.');
  }
  const lines = [TLOG_PROOF_HEADER];
  if (input.extra !== undefined) lines.push(`extra ${toBase64(input.extra)}`);
  // Decimal without leading zeros, as the spec asks.
  lines.push(`index ${input.index}`);
  for (const hash of input.hashes) lines.push(typeof hash === 'string' ? hash : toBase64(hash));
  return `${lines.join('\n')}\n\n${input.checkpoint}`;
}
