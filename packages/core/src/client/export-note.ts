/**
 * The C2SP note on an export's checkpoint line: the same tree head as the JSON checkpoint, signed
 * as a checkpoint note, which is what an outside tool (Go's `note.Open`) checks and what witnesses
 * cosign. A note that is there must open with the organization's note key (the checkpoint's
 * `verifier_key`, which the audit key's signature of the JSON covers, checked before this; a
 * server from before note keys signed its notes with the audit key itself), be the log of the
 * expected organization, and name the tree head the JSON signs: a note swapped for another head's,
 * or edited, fails the export even when the JSON is intact. An export made before the note was
 * added has none; its JSON signature still covers the same head.
 */
import type { Checkpoint } from '../activity/checkpoint/checkpoint-form.js';
import { parseCheckpointBody } from '../activity/note/checkpoint-body.js';
import { parseNote } from '../activity/note/signed-note.js';
import { fromBase64 } from '../encoding/base64.js';
import { type ExportVerdict, fail } from './export-verdict.js';
import { openCheckpoint } from './open-checkpoint.js';

/** The raw 32 bytes of an audit key given as raw base64url or as an SPKI PEM. */
function rawKey(publicKey: string): string | Uint8Array {
  if (!publicKey.includes('BEGIN PUBLIC KEY')) return publicKey;
  const der = fromBase64(publicKey.replace(/-----(BEGIN|END) PUBLIC KEY-----|\s/g, ''));
  // An Ed25519 SPKI ends with the raw key; anything else will not verify.
  return der ? der.subarray(der.length - 32) : new Uint8Array();
}

/**
 * The fault of the checkpoint line's note, or null when it has none or it verifies with
 * `publicKey` as the log of `organization` and names the JSON checkpoint's tree head.
 */
export async function checkExportNote(
  checkpoint: { value: Checkpoint; line: number },
  organization: string,
  publicKey: string,
): Promise<ExportVerdict | null> {
  const { value, line } = checkpoint;
  const note = (value as { note?: unknown }).note;
  if (note === undefined) return null;
  const invalid = (why: string) => fail(line, 'checkpoint_invalid', `The checkpoint's note ${why}.`);
  const parsed = typeof note === 'string' ? parseNote(note) : null;
  const body = parsed && parseCheckpointBody(parsed.text);
  if (!body) return invalid('is not a C2SP checkpoint note');
  // The origin line is `<checkpoint origin>/<organization>`: another organization's log fails here.
  if (!body.origin.endsWith(`/${organization}`)) {
    return invalid(`is of the log ${JSON.stringify(body.origin)}, not of ${JSON.stringify(organization)}`);
  }
  const verifierKey = typeof value.verifier_key === 'string' ? value.verifier_key : null;
  if (verifierKey !== null && verifierKey.split('+')[0] !== body.origin) {
    return invalid(`names the log ${JSON.stringify(body.origin)}, its checkpoint another note key`);
  }
  const opened = await openCheckpoint({
    note: note as string,
    key: verifierKey ?? { name: body.origin, publicKey: rawKey(publicKey) },
  });
  if (!opened.ok) {
    const by = verifierKey === null ? 'the given audit key' : 'the note key the audit key signed';
    return invalid(`does not verify with ${by}: ${opened.message}`);
  }
  const root = typeof value.root_hash === 'string' ? fromBase64(value.root_hash) : null;
  const sameRoot =
    root !== null &&
    root.length === opened.rootHash.length &&
    root.every((byte, i) => byte === opened.rootHash[i]);
  if (opened.treeSize !== value.tree_size || opened.treeSize !== value.seq || !sameRoot) {
    return invalid('names another tree head than the checkpoint');
  }
  return null;
}
