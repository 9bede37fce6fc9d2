/**
 * The bytes an activity event's hash covers, without the hashing: the event placed after its
 * chain head (`seq`, `prev_hash`) and written in its RFC 8785 canonical form. Kept free of any
 * crypto module, so the server (Node's hash, synchronous, inside a store's transaction) and a
 * client (WebCrypto, in Node or a browser) hash the very same text.
 */
import canonicalize from 'canonicalize';
import type { ActivityDraft, ActivityEvent } from '../model/model.js';

/** The `prev_hash` of an organization's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** The chain head an append builds on. */
export interface ChainHead {
  seq: number;
  hash: string;
}

/** An event placed after `head` (or first when `head` is null), not hashed yet. */
export type UnsealedEvent = Omit<ActivityEvent, 'hash'>;

/** Places a draft after `head`: its `seq` and `prev_hash`, with undefined fields dropped. */
export function placeEvent(draft: ActivityDraft, head: ChainHead | null): UnsealedEvent {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(draft)) if (v !== undefined) out[k] = v;
  return { ...out, seq: (head?.seq ?? 0) + 1, prev_hash: head?.hash ?? GENESIS_HASH } as UnsealedEvent;
}

/** The text an event's hash is the SHA-256 of: the RFC 8785 (JCS) form of the event without `hash`. */
export function chainText(unsealed: UnsealedEvent): string {
  return canonicalize(unsealed) ?? '';
}
