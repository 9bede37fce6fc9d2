import { describe, expect, it } from 'vitest';
import type { ActivityDraft, ActivityEvent } from '../model/model.js';
import { GENESIS_HASH, sealEvent, verifyChain } from './chain.js';

const draft = (i: number): ActivityDraft => ({
  id: `evt_${i}`,
  type: 'push_applied',
  occurred_at: `2026-11-22T00:00:0${i}.000Z`,
  organization: 'acme',
  actor: { type: 'user', id: 'admin' },
  data: { n: i },
});

function chain(n: number): ActivityEvent[] {
  const out: ActivityEvent[] = [];
  for (let i = 0; i < n; i++) {
    const last = out[out.length - 1];
    out.push(sealEvent(draft(i), last ? { seq: last.seq, hash: last.hash } : null));
  }
  return out;
}

describe('the activity hash chain', () => {
  it('links each event to the one before', () => {
    const events = chain(3);
    expect(events[0]!.prev_hash).toBe(GENESIS_HASH);
    expect(events[1]!.prev_hash).toBe(events[0]!.hash);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(verifyChain(events)).toBe(-1);
  });

  it('finds an edited, removed or reordered event', () => {
    const edited = chain(4);
    edited[2] = { ...edited[2]!, data: { n: 99 } };
    expect(verifyChain(edited)).toBe(2);
    const removed = chain(4);
    removed.splice(1, 1);
    expect(verifyChain(removed)).toBe(1);
    const swapped = chain(4);
    [swapped[1], swapped[2]] = [swapped[2]!, swapped[1]!];
    expect(verifyChain(swapped)).toBe(1);
  });

  it('does not depend on key order or undefined fields', () => {
    const a = sealEvent({ ...draft(1), project: undefined }, null);
    const { data, ...rest } = draft(1);
    const reordered = { data, ...rest };
    expect(sealEvent(reordered, null).hash).toBe(a.hash);
  });
});
