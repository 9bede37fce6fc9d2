/**
 * The inclusion proofs of a filtered NDJSON export: after each event line, one line
 * `{"inclusion": {"seq", "leaf_index", "tree_size", "hashes"}}` with its RFC 6962 audit path in the
 * tree the closing checkpoint signs, so the events of a filtered export (by `since`, `until` or
 * `type`) are checkable without the rest of the log. The proofs of a chunk are read in one call.
 */
import { toBase64 } from '../../encoding/base64.js';
import type { LatchkeyStore } from '../../store/types.js';
import { inclusionProofs } from '../merkle/proofs.js';

const decoder = new TextDecoder();

/** A chunk of event lines (each ending in `\n`) with each event's inclusion line after it. */
export async function withInclusionLines(
  store: LatchkeyStore,
  organizationId: string,
  treeSize: number,
  chunk: string | Uint8Array,
): Promise<string> {
  const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk);
  const lines = text.split('\n').slice(0, -1);
  // A filtered export pays for parsing its lines; the full export streams its bytes untouched.
  const seqs = lines.map((line) => (JSON.parse(line) as { seq: number }).seq);
  const paths = await inclusionProofs(
    seqs.map((seq) => seq - 1),
    treeSize,
    (addresses) => store.activity.treeNodes(organizationId, addresses),
  );
  let out = '';
  lines.forEach((line, i) => {
    const inclusion = {
      seq: seqs[i]!,
      leaf_index: seqs[i]! - 1,
      tree_size: treeSize,
      hashes: paths[i]!.map(toBase64),
    };
    out += `${line}\n${JSON.stringify({ inclusion })}\n`;
  });
  return out;
}
