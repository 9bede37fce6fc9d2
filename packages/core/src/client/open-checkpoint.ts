/**
 * `openCheckpoint`: opens a C2SP checkpoint note of a Latchkey log (https://c2sp.org/tlog-checkpoint
 * in https://c2sp.org/signed-note) with the log's key, pinned out of band, and counts the witnesses
 * whose tlog-cosignature/v1 lines verify. Runs wherever WebCrypto has Ed25519 (Node 20, current
 * browsers); it loads no server code.
 */
import { fromBase64 } from '../activity/note/base64.js';
import { checkpointBodyText, parseCheckpointBody } from '../activity/note/checkpoint-body.js';
import { verifyCosignature } from '../activity/note/cosignature.js';
import {
  ALG_COSIGNATURE_V1,
  ALG_ED25519,
  keyHash,
  parseVerifierKey,
  sameBytes,
  verifyEd25519,
} from '../activity/note/note-key.js';
import { parseNote } from '../activity/note/signed-note.js';

/** A public key: a verifier key string, or the raw Ed25519 key (bytes, base64 or base64url) with its name. */
export type NotePublicKey = string | { name: string; publicKey: Uint8Array | string };

/** Options of {@link openCheckpoint}. */
export interface OpenCheckpointOptions {
  /** The note, as `GET …/activity/checkpoint` gives it (`note`, or the text/plain answer). */
  note: string;
  /**
   * The log's key: its verifier key (`verifier_key` of the checkpoint JSON, pinned out of band),
   * or `{ name: <origin line>, publicKey }` with the raw audit public key.
   */
  key: NotePublicKey;
  /** The witnesses you trust: their key names and Ed25519 public keys (raw, or vkeys with algorithm 0x04). */
  witnesses?: readonly NotePublicKey[];
  /** How many distinct listed witnesses must have cosigned. Default 0 (the log's signature alone). */
  quorum?: number;
}

/** A checkpoint that opened. */
export interface OpenedCheckpoint {
  origin: string;
  treeSize: number;
  /** The RFC 6962 root hash, 32 bytes. */
  rootHash: Uint8Array;
  /** The listed witnesses whose cosignatures verified, with their timestamps (POSIX seconds). */
  cosignedBy: { name: string; timestamp: number }[];
}

/** Why a checkpoint did not open. */
export type CheckpointFault =
  | 'malformed_note'
  | 'malformed_checkpoint'
  | 'bad_key'
  | 'unsigned'
  | 'bad_signature'
  | 'quorum_not_met';

/** The outcome of {@link openCheckpoint}. */
export type CheckpointVerdict =
  | ({ ok: true } & OpenedCheckpoint)
  | { ok: false; fault: CheckpointFault; message: string };

const fail = (fault: CheckpointFault, message: string): CheckpointVerdict => ({ ok: false, fault, message });

/** Standard base64 of a key given in either alphabet (the checkpoint JSON's `public_key` is base64url). */
function standard(text: string): string {
  const plain = text.replace(/-/g, '+').replace(/_/g, '/');
  return plain.padEnd(Math.ceil(plain.length / 4) * 4, '=');
}

async function toKey(
  key: NotePublicKey,
  alg: number,
): Promise<{ name: string; publicKey: Uint8Array } | null> {
  if (typeof key === 'string') {
    const parsed = await parseVerifierKey(key, [alg]);
    return parsed && { name: parsed.name, publicKey: parsed.publicKey };
  }
  const publicKey = typeof key.publicKey === 'string' ? fromBase64(standard(key.publicKey)) : key.publicKey;
  return publicKey?.length === 32 ? { name: key.name, publicKey } : null;
}

/**
 * Opens `note` with the log's key: the note must be well formed, carry the log's signature under
 * its key name and key hash, and its text must be a checkpoint body whose origin is that name. With
 * `quorum`, at least that many distinct listed witnesses' cosignatures must verify; cosignature
 * lines of unlisted keys are ignored, as the spec says.
 */
export async function openCheckpoint(options: OpenCheckpointOptions): Promise<CheckpointVerdict> {
  const log = await toKey(options.key, ALG_ED25519);
  if (!log) return fail('bad_key', 'The log key is not an Ed25519 verifier key or raw public key.');
  const note = parseNote(options.note);
  if (!note) return fail('malformed_note', 'The note is not a C2SP signed note.');
  const body = parseCheckpointBody(note.text);
  if (!body) return fail('malformed_checkpoint', 'The note text is not a C2SP checkpoint.');
  if (body.origin !== log.name)
    return fail('malformed_checkpoint', `The origin is ${body.origin}, not ${log.name}.`);
  const hash = await keyHash(log.name, ALG_ED25519, log.publicKey);
  const own = note.signatures.filter((s) => s.name === log.name && sameBytes(s.keyHash, hash));
  if (own.length === 0)
    return fail('unsigned', `The note carries no signature of ${log.name} with this key.`);
  const message = new TextEncoder().encode(note.text);
  if (!(await verifyEd25519(log.publicKey, message, own[0]!.signature)) || own.length > 1) {
    return fail('bad_signature', 'The log’s signature does not verify.');
  }
  const cosignedBy: OpenedCheckpoint['cosignedBy'] = [];
  const counted: { name: string; publicKey: Uint8Array }[] = [];
  for (const listed of options.witnesses ?? []) {
    const witness = await toKey(listed, ALG_COSIGNATURE_V1);
    if (!witness) return fail('bad_key', 'A witness key is not an Ed25519 cosignature key.');
    // Distinct witnesses: one name or one key counts once, however often it is listed.
    if (counted.some((c) => c.name === witness.name || sameBytes(c.publicKey, witness.publicKey))) continue;
    for (const line of note.signatures) {
      const timestamp = await verifyCosignature(note.text, line, witness);
      if (timestamp !== null) {
        cosignedBy.push({ name: witness.name, timestamp: Number(timestamp) });
        counted.push(witness);
        break;
      }
    }
  }
  const quorum = options.quorum ?? 0;
  if (cosignedBy.length < quorum) {
    return fail(
      'quorum_not_met',
      `${cosignedBy.length} of the ${quorum} witness cosignatures required verify.`,
    );
  }
  return { ok: true, origin: body.origin, treeSize: body.treeSize, rootHash: body.rootHash, cosignedBy };
}

/** The checkpoint body of a tree head, as a log signs it and a witness cosigns it. */
export const checkpointBody = checkpointBodyText;
