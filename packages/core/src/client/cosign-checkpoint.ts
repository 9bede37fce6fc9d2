/**
 * `cosignCheckpoint`: what a witness signs once it has checked a checkpoint (its log's signature
 * and its consistency with the last head it saw): a C2SP tlog-cosignature/v1 line over the note's
 * checkpoint body, to post to `…/activity/checkpoint/cosignatures`. WebCrypto only.
 */

import { cosignatureValue, cosignedMessage } from '../activity/note/cosignature.js';
import { ALG_COSIGNATURE_V1, keyHash } from '../activity/note/note-key.js';
import { parseNote } from '../activity/note/signed-note.js';
import { concatBytes, toBase64 } from '../encoding/base64.js';

/** Options of {@link cosignCheckpoint}. */
export interface CosignOptions {
  /** The checkpoint note (or its body alone, ending with a newline) the witness checked. */
  note: string;
  /** The witness's key name, e.g. `witness.example.com/w1`. */
  name: string;
  /** The witness's Ed25519 private key (WebCrypto, usage `sign`). */
  privateKey: CryptoKey;
  /** Its raw 32-byte public key (the key hash covers it). */
  publicKey: Uint8Array;
  /** POSIX seconds of the cosignature. Default now. */
  timestamp?: number;
}

/** The cosignature line (without its newline) of the note's checkpoint body. */
export async function cosignCheckpoint(options: CosignOptions): Promise<string> {
  const body = options.note.includes('\n\n') ? parseNote(options.note)?.text : options.note;
  if (body === undefined || !body.endsWith('\n')) throw new TypeError('The note is not a C2SP signed note.');
  const timestamp = BigInt(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = new Uint8Array(
    await crypto.subtle.sign(
      { name: 'Ed25519' },
      options.privateKey,
      new Uint8Array(cosignedMessage(body, timestamp)),
    ),
  );
  const hash = await keyHash(options.name, ALG_COSIGNATURE_V1, options.publicKey);
  return `\u2014 ${options.name} ${toBase64(concatBytes(hash, cosignatureValue(timestamp, signature)))}`;
}
