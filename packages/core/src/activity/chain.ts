/**
 * The tamper-evident chain of activity events. Each organization's events form one chain: an event's
 * hash covers the previous event's hash and the event's own canonical JSON, so removing, reordering
 * or editing any event breaks every hash after it.
 */
import { createHash } from 'node:crypto';
import type { ActivityDraft, ActivityEvent } from '../model/model.js';
import { type ChainHead, chainText, placeEvent } from './chain-form.js';

export { type ChainHead, GENESIS_HASH } from './chain-form.js';

/** Places a draft after `head` (or first when `head` is null), computing `seq`, `prev_hash` and `hash`. */
export function sealEvent(draft: ActivityDraft, head: ChainHead | null): ActivityEvent {
  const unsealed = placeEvent(draft, head);
  const hash = createHash('sha256').update(chainText(unsealed)).digest('hex');
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
