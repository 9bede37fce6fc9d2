/**
 * The sequencer's lane: one seal at a time per organization; the pushes that commit while one runs
 * share the next, which is handed their pending events in the order they asked.
 */
import { describe, expect, it } from 'vitest';
import type { ActivityRepository, PendingEvent } from '../store/ports/activity.js';
import { sealCommitted } from './sequencer.js';

/** A store whose seals the test ends by hand, remembering the events each was handed. */
function manualSeals() {
  const calls: { organizationId: string; own: readonly PendingEvent[]; end: () => void }[] = [];
  const activity = {
    sealPending(organizationId: string, own: readonly PendingEvent[] = []) {
      return new Promise<number>((resolve) => {
        calls.push({ organizationId, own, end: () => resolve(own.length) });
      });
    },
  } as unknown as ActivityRepository;
  return { activity, calls };
}

const event = (position: number): PendingEvent => ({ position, draft: '{}', traceparent: null });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('sealCommitted', () => {
  it('hands each seal the events of the pushes waiting for it, in the order they asked', async () => {
    const owner = {};
    const { activity, calls } = manualSeals();
    const first = sealCommitted(owner, activity, 'org', event(1));
    await tick();
    expect(calls.map((c) => c.own.map((e) => e.position))).toEqual([[1]]);
    // While the first runs, three more commit: they share the next seal, which waits for the first.
    let done = 0;
    const later = [3, 2, 4].map((n) => sealCommitted(owner, activity, 'org', event(n)).then(() => done++));
    const bare = sealCommitted(owner, activity, 'org');
    await tick();
    expect(calls).toHaveLength(1);
    calls[0]!.end();
    await first;
    await tick();
    expect(calls.map((c) => c.own.map((e) => e.position))).toEqual([[1], [3, 2, 4]]);
    expect(done).toBe(0);
    calls[1]!.end();
    await Promise.all([...later, bare]);
    expect(done).toBe(3);
  });

  it('keeps organizations apart, and owners (stores) apart', async () => {
    const { activity, calls } = manualSeals();
    const owner = {};
    const one = sealCommitted(owner, activity, 'org_a', event(1));
    const two = sealCommitted(owner, activity, 'org_b', event(2));
    const three = sealCommitted({}, activity, 'org_a', event(3));
    await tick();
    expect(calls.map((c) => [c.organizationId, c.own.map((e) => e.position)])).toEqual([
      ['org_a', [1]],
      ['org_b', [2]],
      ['org_a', [3]],
    ]);
    for (const call of calls) call.end();
    await Promise.all([one, two, three]);
  });
});
