/**
 * `openCheckpoint`: opens a C2SP checkpoint note of a Latchkey log (https://c2sp.org/tlog-checkpoint
 * in https://c2sp.org/signed-note) with the log's key, pinned out of band, and counts the witnesses
 * whose tlog-cosignature/v1 lines verify. Runs wherever WebCrypto has Ed25519 (Node 20, current
 * browsers); it loads no server code.
 */

import { checkpointBodyText, parseCheckpointBody } from '../activity/note/checkpoint-body.js';
import { verifyCosignature, type WitnessKey } from '../activity/note/cosignature.js';
import {
  ALG_COSIGNATURE_V1,
  ALG_ED25519,
  keyHash,
  parseVerifierKey,
  sameBytes,
  verifyEd25519,
} from '../activity/note/note-key.js';
import { type NoteSignature, type ParsedNote, parseNote } from '../activity/note/signed-note.js';
import { isWeakEd25519Key } from '../activity/note/strict-ed25519.js';
import { fromBase64 } from '../encoding/base64.js';

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
  /**
   * Signature lines other than the log's that no listed witness key matched (name and key hash):
   * nothing vouches for them, so a reader says how many went unchecked rather than naming them.
   */
  unverified: number;
}

/** Why a checkpoint did not open. */
export type CheckpointFault =
  | 'malformed_note'
  | 'malformed_checkpoint'
  | 'bad_key'
  | 'unsigned'
  | 'bad_signature'
  | 'bad_cosignature'
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

/** The key of `listed`, or why it is refused: a weak key (small order, mixed order) is refused as at registration. */
async function strictKey(listed: NotePublicKey, alg: number, what: string): Promise<WitnessKey | string> {
  const key = await toKey(listed, alg);
  if (!key) return `${what} is not an Ed25519 ${alg === ALG_ED25519 ? 'verifier' : 'cosignature'} key.`;
  if (isWeakEd25519Key(key.publicKey))
    return `${what} is a weak Ed25519 key (small order, mixed order or a non-canonical encoding).`;
  return key;
}

/**
 * The listed witnesses' cosignatures in `note`: each distinct witness's lines (its name and key
 * hash) must verify, as Go's `note.Open` requires of a known key; lines no listed key matches are
 * only counted.
 */
async function cosignaturesOf(
  note: ParsedNote,
  lines: readonly NoteSignature[],
  listed: readonly NotePublicKey[],
): Promise<{ cosignedBy: OpenedCheckpoint['cosignedBy']; unverified: number } | CheckpointVerdict> {
  const cosignedBy: OpenedCheckpoint['cosignedBy'] = [];
  const counted: WitnessKey[] = [];
  const matched = new Set<NoteSignature>();
  for (const entry of listed) {
    const witness = await strictKey(entry, ALG_COSIGNATURE_V1, 'A witness key');
    if (typeof witness === 'string') return fail('bad_key', witness);
    // Distinct witnesses: one name or one key counts once, however often it is listed.
    if (counted.some((c) => c.name === witness.name || sameBytes(c.publicKey, witness.publicKey))) continue;
    counted.push(witness);
    const hash = await keyHash(witness.name, ALG_COSIGNATURE_V1, witness.publicKey);
    const own = lines.filter((line) => line.name === witness.name && sameBytes(line.keyHash, hash));
    for (const line of own) {
      matched.add(line);
      const timestamp = await verifyCosignature(note.text, line, witness);
      if (timestamp === null)
        return fail('bad_cosignature', `The cosignature of ${witness.name} does not verify.`);
      if (line === own[0]) cosignedBy.push({ name: witness.name, timestamp: Number(timestamp) });
    }
  }
  return { cosignedBy, unverified: lines.filter((line) => !matched.has(line)).length };
}

/**
 * Opens `note` with the log's key: the note must be well formed, carry the log's signature under
 * its key name and key hash, and its text must be a checkpoint body whose origin is that name. With
 * `quorum`, at least that many distinct listed witnesses' cosignatures must verify; a listed
 * witness's line that does not verify fails the note (`bad_cosignature`), lines of unlisted keys
 * are ignored, as the spec says, and counted in `unverified`. Weak keys (small or mixed order) are
 * refused as `bad_key`, and no signature with a small-order R or a non-canonical S verifies.
 */
export async function openCheckpoint(options: OpenCheckpointOptions): Promise<CheckpointVerdict> {
  const log = await strictKey(options.key, ALG_ED25519, 'The log key');
  if (typeof log === 'string') return fail('bad_key', log);
  const note = parseNote(options.note);
  if (!note) return fail('malformed_note', 'The note is not a C2SP signed note.');
  const body = parseCheckpointBody(note.text);
  if (!body) return fail('malformed_checkpoint', 'The note text is not a C2SP checkpoint.');
  if (body.origin !== log.name)
    return fail('malformed_checkpoint', `The origin is ${body.origin}, not ${log.name}.`);
  const hash = await keyHash(log.name, ALG_ED25519, log.publicKey);
  const isOwn = (s: NoteSignature) => s.name === log.name && sameBytes(s.keyHash, hash);
  const own = note.signatures.filter(isOwn);
  if (own.length === 0)
    return fail('unsigned', `The note carries no signature of ${log.name} with this key.`);
  const message = new TextEncoder().encode(note.text);
  if (!(await verifyEd25519(log.publicKey, message, own[0]!.signature)) || own.length > 1) {
    return fail('bad_signature', 'The log’s signature does not verify.');
  }
  const others = note.signatures.filter((s) => !isOwn(s));
  const witnessed = await cosignaturesOf(note, others, options.witnesses ?? []);
  if ('ok' in witnessed) return witnessed;
  const quorum = options.quorum ?? 0;
  if (witnessed.cosignedBy.length < quorum) {
    return fail(
      'quorum_not_met',
      `${witnessed.cosignedBy.length} of the ${quorum} witness cosignatures required verify.`,
    );
  }
  return { ok: true, origin: body.origin, treeSize: body.treeSize, rootHash: body.rootHash, ...witnessed };
}

/** The checkpoint body of a tree head, as a log signs it and a witness cosigns it. */
export const checkpointBody = checkpointBodyText;
