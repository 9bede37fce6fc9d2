/**
 * Taking a witness's cosignature of one of this log's tree heads. It is kept only when it is a
 * valid C2SP tlog-cosignature/v1 by a witness the organization registered, over a checkpoint body
 * this server would sign itself: this log's origin line, a size no larger than the log, and the root
 * hash of the log at that size. So a cosignature line can neither vouch for a head the log never had
 * nor be planted by anyone without a registered witness's key.
 */

import { fromBase64, toBase64 } from '../encoding/base64.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Organization } from '../model/model.js';
import type { Cosignature } from '../store/types.js';
import type { AuditKey } from './checkpoint/checkpoint.js';
import type { CheckpointDeps } from './checkpoint/checkpoint-deps.js';
import { checkpointOriginLine } from './checkpoint/checkpoint-note.js';
import { treeHeadOf } from './checkpoint/log-tree-head.js';
import { requireAuditKey } from './checkpoint/require-audit-key.js';
import { parseCheckpointBody } from './note/checkpoint-body.js';
import { verifyCosignature } from './note/cosignature.js';
import { type NoteSignature, parseNote, parseSignatureLine } from './note/signed-note.js';

/** Tree heads whose cosignatures are kept per organization (the largest sizes). */
const COSIGNED_HEADS_KEPT = 16;
/** How far in the future a cosignature's timestamp may be, in seconds (clock skew). */
const FUTURE_SKEW_SECONDS = 300;

const invalid = (message: string) => new LatchkeyError('cosignature_invalid', message);

/** The checkpoint body and the signature lines of what a witness posted. */
function readPosted(
  cosignature: string,
  checkpoint: string | undefined,
): { body: string | undefined; lines: NoteSignature[] } {
  if (cosignature.includes('\n\n')) {
    const note = parseNote(cosignature.endsWith('\n') ? cosignature : `${cosignature}\n`);
    if (!note) throw invalid('The cosigned note is not a C2SP signed note.');
    return { body: note.text, lines: note.signatures };
  }
  const line = parseSignatureLine(cosignature.replace(/\n$/, ''));
  if (!line) throw invalid('The cosignature is not a note signature line: — <name> <base64>.');
  return { body: checkpoint, lines: [line] };
}

/**
 * Verifies and keeps the cosignatures in `cosignature` (a signature line with `checkpoint` naming
 * the body, or a whole cosigned note); the body defaults to the current head's. Answers the kept
 * ones; throws `cosignature_invalid` when none of its lines is a registered witness's valid one, and
 * 404 `not_found` on a server without an audit key.
 */
export async function acceptCosignature(
  services: Pick<CheckpointDeps, 'store' | 'now' | 'checkpointOrigin'> & { auditKey: AuditKey | undefined },
  organization: Organization,
  posted: { cosignature: string; checkpoint?: string | undefined },
): Promise<Cosignature[]> {
  requireAuditKey(services);
  const { store } = services;
  const { body: given, lines } = readPosted(posted.cosignature, posted.checkpoint);
  const origin = checkpointOriginLine(services.checkpointOrigin, organization.slug);
  const head = given === undefined ? await treeHeadOf(store, organization.id) : null;
  const body = given ?? `${origin}\n${head!.size}\n${toBase64(head!.rootHash)}\n`;
  const parsed = parseCheckpointBody(body);
  if (!parsed || parsed.extensions.length > 0)
    throw invalid('The checkpoint is not a checkpoint body of this log.');
  if (parsed.origin !== origin) throw invalid(`The checkpoint's origin is not this log's (${origin}).`);
  const valid = await validLines(services, organization, body, lines);
  // Only now, with a registered witness's signature in hand, read the log: the tree head costs
  // more than a signature check, and nobody without a witness key may make the server pay for it.
  const tree = head ?? (await treeHeadOf(store, organization.id, parsed.treeSize));
  const rootHash = toBase64(parsed.rootHash);
  if (!tree || tree.size !== parsed.treeSize || toBase64(tree.rootHash) !== rootHash) {
    throw invalid('The checkpoint names a tree head this log never had.');
  }
  const kept: Cosignature[] = [];
  for (const { witness, timestamp, line } of valid) {
    const record: Cosignature = {
      organization_id: organization.id,
      tree_size: parsed.treeSize,
      root_hash: rootHash,
      witness,
      timestamp,
      line,
    };
    if (await store.witnesses.putCosignature(record, COSIGNED_HEADS_KEPT)) kept.push(record);
  }
  if (kept.length === 0) throw invalid('The witness was removed meanwhile.');
  return kept;
}

/** The lines that are registered witnesses' valid cosignatures of `body`; a 422 when there is none. */
async function validLines(
  services: Pick<CheckpointDeps, 'store' | 'now'>,
  organization: Organization,
  body: string,
  lines: readonly NoteSignature[],
): Promise<{ witness: string; timestamp: number; line: string }[]> {
  const witnesses = new Map((await services.store.witnesses.list(organization.id)).map((w) => [w.name, w]));
  const latest = BigInt(Math.floor(services.now() / 1000) + FUTURE_SKEW_SECONDS);
  const valid: { witness: string; timestamp: number; line: string }[] = [];
  for (const line of lines) {
    const witness = witnesses.get(line.name);
    if (!witness) continue;
    const timestamp = await verifyCosignature(body, line, {
      name: witness.name,
      publicKey: fromBase64(witness.public_key)!,
    });
    if (timestamp === null || timestamp > latest) continue;
    valid.push({
      witness: witness.name,
      timestamp: Number(timestamp),
      line: `\u2014 ${line.name} ${toBase64(new Uint8Array([...line.keyHash, ...line.signature]))}`,
    });
  }
  if (valid.length === 0) {
    throw invalid(
      'No line is a valid tlog-cosignature/v1 of this checkpoint by a registered witness (unknown name, wrong key hash, bad signature, or a timestamp in the future).',
    );
  }
  return valid;
}
