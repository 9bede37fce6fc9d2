/**
 * The tamper-evident chain of activity events. Each organization's events form one chain: an event's
 * hash covers the previous event's hash and the event's own canonical JSON, so removing, reordering
 * or editing any event breaks every hash after it.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { ActivityDraft, ActivityEvent } from '../model.js';

/** The `prev_hash` of an organization's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** The chain head an append builds on. */
export interface ChainHead {
  seq: number;
  hash: string;
}

/** Places a draft after `head` (or first when `head` is null), computing `seq`, `prev_hash` and `hash`. */
export function sealEvent(draft: ActivityDraft, head: ChainHead | null): ActivityEvent {
  const unsealed = {
    ...stripUndefined(draft),
    seq: (head?.seq ?? 0) + 1,
    prev_hash: head?.hash ?? GENESIS_HASH,
  };
  const hash = createHash('sha256')
    .update(canonicalize(unsealed) ?? '')
    .digest('hex');
  return { ...unsealed, hash } as ActivityEvent;
}

/** Checks a run of consecutive events of one organization. Returns the index of the first bad one, or -1. */
export function verifyChain(events: readonly ActivityEvent[], previous: ChainHead | null = null): number {
  let head = previous;
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    const { hash, ...rest } = event;
    const expected = sealEvent(rest as ActivityDraft, head);
    if (expected.hash !== hash || expected.seq !== event.seq || expected.prev_hash !== event.prev_hash)
      return i;
    head = { seq: event.seq, hash };
  }
  return -1;
}

function stripUndefined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as T;
}
