/**
 * The two primitives checking an export needs, supplied by the entry that runs the check: Node's
 * crypto for the CLI and other Node clients (synchronous and fast: about 15 times WebCrypto's
 * per-call cost in Node), WebCrypto in a browser. The texts they hash and verify come from the same
 * crypto-free forms (`chain-form.ts`, `checkpoint-form.ts`), so both reach the same verdicts.
 */
import { chainText, placeEvent } from '../activity/chain-form.js';
import type { Checkpoint } from '../activity/checkpoint/checkpoint-form.js';
import type { ActivityDraft, ActivityEvent } from '../model/model.js';

/** SHA-256 and Ed25519 checkpoint verification, synchronous or not. */
export interface ChainCrypto {
  /** Lowercase hex SHA-256 of the UTF-8 of `text`. */
  sha256Hex(text: string): string | Promise<string>;
  /** Whether `checkpoint` is signed by `publicKey` (raw base64url, or SPKI PEM). */
  verifyCheckpoint(checkpoint: Checkpoint, publicKey: string): boolean | Promise<boolean>;
}

/** The text whose SHA-256 `event`'s hash should be: its content placed after `prev_hash` at its own `seq`. */
export function eventChainText(event: ActivityEvent): string {
  const { hash: _hash, ...content } = event;
  const head = event.seq === 1 ? null : { seq: event.seq - 1, hash: event.prev_hash };
  return chainText(placeEvent(content as ActivityDraft, head));
}
