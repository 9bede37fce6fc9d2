/**
 * Signing the C2SP checkpoint note of a tree head with the organization's note key (derived from
 * the audit key and the origin line, `note-signing-key.ts`): the tlog-checkpoint body (origin line
 * `<checkpointOrigin>/<organization>`, tree size, base64 root hash) in a signed note whose key name
 * is the origin line.
 */
import { sign } from 'node:crypto';
import { checkpointBodyText } from '../note/checkpoint-body.js';
import { ALG_ED25519, keyHash, verifierKey } from '../note/note-key.js';
import { type NoteSignature, signatureLine } from '../note/signed-note.js';
import type { AuditKey } from './checkpoint.js';
import { noteSigningKey } from './note-signing-key.js';

/** A signed checkpoint note and what a reader needs to check it. */
export interface SignedCheckpointNote {
  origin: string;
  /** The note text (the checkpoint body) without signatures. */
  body: string;
  /** The log's own signature line, newline included. */
  signatureLine: string;
  /** The verifier key `<origin>+<key hash>+<base64(0x01 || note key)>` (Go's `note.NewVerifier`), one per organization. */
  verifierKey: string;
}

/** The origin line of an organization's log. */
export function checkpointOriginLine(checkpointOrigin: string, organization: string): string {
  return `${checkpointOrigin}/${organization}`;
}

/** Signs the tree head `{size, rootHash}` of the log named `origin` with that log's note key under `key`. */
export async function signCheckpointNote(
  key: AuditKey,
  origin: string,
  head: { size: number; rootHash: Uint8Array },
): Promise<SignedCheckpointNote> {
  const { privateKey, publicKey } = noteSigningKey(key, origin);
  const body = checkpointBodyText(origin, head.size, head.rootHash);
  const signature: NoteSignature = {
    name: origin,
    keyHash: await keyHash(origin, ALG_ED25519, publicKey),
    signature: new Uint8Array(sign(null, Buffer.from(body), privateKey)),
  };
  return {
    origin,
    body,
    signatureLine: signatureLine(signature),
    verifierKey: await verifierKey(origin, publicKey),
  };
}
