/**
 * The inclusion proofs of a filtered export (by `since`, `until` or `type`): each event line is
 * followed by its `{"inclusion": ...}` line, so its events may skip positions of the chain, and each
 * is checked against the root hash of the closing checkpoint instead of against its neighbours. The
 * line after the first event says which kind of export it is; a fault that only a proof can excuse
 * (a first event after seq 1) waits for that line.
 */

import type { Checkpoint } from '../activity/checkpoint/checkpoint-form.js';
import { eventLeafHash } from '../activity/merkle/hashes.js';
import { fromBase64 } from '../encoding/base64.js';
import type { ActivityEvent } from '../model/model.js';
import type { InclusionLine } from './export-line.js';
import { type ExportVerdict, fail } from './export-verdict.js';
import { verifyInclusion } from './verify-proofs.js';

/** What the proofs seen so far show. */
export class ExportProofs {
  /** Unknown until the line after the first event. */
  mode: 'unknown' | 'proved' | 'plain' = 'unknown';
  /** A fault of the first event that its proof would excuse. */
  pendingStart: ExportVerdict | null = null;
  #awaiting: { event: ActivityEvent; line: number } | null = null;
  #proved: { line: number; leafHash: Uint8Array; proof: InclusionLine }[] = [];

  /** An event line: in a proved export, the event before it must have had its proof. */
  event(event: ActivityEvent, line: number): ExportVerdict | null {
    const fault = this.#settle(line);
    if (fault) return fault;
    this.#awaiting = { event, line };
    return null;
  }

  /** An inclusion line: the proof of the event just before it. */
  inclusion(proof: InclusionLine, line: number): ExportVerdict | null {
    const awaiting = this.#awaiting;
    if (!awaiting || this.mode === 'plain' || proof.seq !== awaiting.event.seq) {
      return fail(
        line,
        'malformed',
        'An inclusion line must follow the event it proves, in a filtered export.',
      );
    }
    this.mode = 'proved';
    this.pendingStart = null;
    this.#awaiting = null;
    this.#proved.push({ line, leafHash: eventLeafHash(awaiting.event), proof });
    return null;
  }

  /** The end of the events (the checkpoint line, or the end of the export). */
  end(line: number): ExportVerdict | null {
    return this.#settle(line);
  }

  /** Each proof against the checkpoint's tree, which must name a tree for a proved export. */
  check(checkpoint: { value: Checkpoint; line: number } | null, lines: number): ExportVerdict | null {
    if (!checkpoint) {
      return fail(
        lines + 1,
        'truncated',
        'A filtered export must end with the checkpoint its proofs are against.',
      );
    }
    const { tree_size, root_hash } = checkpoint.value;
    const root = typeof root_hash === 'string' ? fromBase64(root_hash) : null;
    if (tree_size !== checkpoint.value.seq || !root) {
      return fail(checkpoint.line, 'checkpoint_invalid', 'The checkpoint names no Merkle tree head.');
    }
    for (const { line, leafHash, proof } of this.#proved) {
      const hashes = proof.hashes.map(fromBase64);
      const ok =
        proof.tree_size === tree_size &&
        proof.leaf_index === proof.seq - 1 &&
        hashes.every((h) => h !== null) &&
        verifyInclusion({
          leafHash,
          leafIndex: proof.leaf_index,
          treeSize: tree_size,
          hashes: hashes as Uint8Array[],
          rootHash: root,
        });
      if (!ok) {
        return fail(line - 1, 'edited', `Event seq ${proof.seq} is not in the tree the checkpoint signs.`);
      }
    }
    return null;
  }

  /** Once the line after an event is known not to be its proof. */
  #settle(line: number): ExportVerdict | null {
    if (!this.#awaiting) return null;
    if (this.mode === 'proved') {
      return fail(line, 'malformed', `Event seq ${this.#awaiting.event.seq} has no inclusion line.`);
    }
    this.mode = 'plain';
    this.#awaiting = null;
    return this.pendingStart;
  }
}
