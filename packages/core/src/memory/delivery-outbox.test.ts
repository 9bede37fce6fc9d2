import { describe, expect, it } from 'vitest';
import type { Delivery } from '../model/model.js';
import { DeliveryOutbox } from './delivery-outbox.js';

const delivery = (id: string, webhookId: string, at: string): Delivery => ({
  id,
  organization_id: 'org',
  webhook_id: webhookId,
  event_id: `evt_${id}`,
  event_seq: 1,
  state: 'pending',
  attempts: 0,
  next_attempt_at: at,
  lease_until: null,
  created_at: at,
  traceparent: null,
});

const T = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;

/** The ids `eachDue` hands out for `webhookId` at `now`, taking at most `most`. */
function due(outbox: DeliveryOutbox, webhookId: string, now: string, most = Infinity): string[] {
  const ids: string[] = [];
  outbox.eachDue(webhookId, now, (d) => {
    ids.push(d.id);
    return ids.length < most;
  });
  return ids;
}

describe('the memory outbox', () => {
  it("keeps each webhook's deliveries in due order, ties by id, whatever order they are set in", () => {
    const outbox = new DeliveryOutbox();
    for (const [id, at] of [
      ['d3', T(3)],
      ['d1', T(1)],
      ['d2b', T(2)],
      ['d2a', T(2)],
      ['d5', T(5)],
    ] as const)
      outbox.set(id, delivery(id, 'wh1', at));
    outbox.set('x1', delivery('x1', 'wh2', T(0)));
    expect(due(outbox, 'wh1', T(3))).toEqual(['d1', 'd2a', 'd2b', 'd3']);
    expect(due(outbox, 'wh1', T(9), 2)).toEqual(['d1', 'd2a']);
    expect(due(outbox, 'wh2', T(9))).toEqual(['x1']);
    expect([...outbox.webhookIds()].sort()).toEqual(['wh1', 'wh2']);
    expect(outbox.size).toBe(6);
  });

  it('moves a delivery set again after its due time changed, and forgets a deleted one', () => {
    const outbox = new DeliveryOutbox();
    const first = delivery('d1', 'wh1', T(1));
    outbox.set('d1', first);
    outbox.set('d2', delivery('d2', 'wh1', T(2)));
    first.next_attempt_at = T(8);
    outbox.set('d1', first);
    expect(due(outbox, 'wh1', T(5))).toEqual(['d2']);
    expect([...outbox.ofWebhook('wh1')].map((d) => d.id)).toEqual(['d2', 'd1']);
    outbox.delete('d2');
    expect(due(outbox, 'wh1', T(9))).toEqual(['d1']);
    outbox.delete('d1');
    expect([...outbox.webhookIds()]).toEqual([]);
    expect(outbox.size).toBe(0);
  });

  it('agrees with a sort of what it holds through many sets, moves and deletes', () => {
    const outbox = new DeliveryOutbox();
    const held = new Map<string, Delivery>();
    // A fixed pseudo-random walk (a linear congruential generator), so a failure replays.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let step = 0; step < 3_000; step++) {
      const id = `d${next(200)}`;
      const existing = held.get(id);
      const choice = next(3);
      if (choice === 0 && existing) {
        outbox.delete(id);
        held.delete(id);
      } else if (choice === 1 && existing) {
        existing.next_attempt_at = T(next(60));
        outbox.set(id, existing);
      } else if (!existing) {
        const d = delivery(id, `wh${next(2)}`, T(next(60)));
        outbox.set(id, d);
        held.set(id, d);
      }
      if (step % 100 !== 0) continue;
      for (const webhookId of ['wh0', 'wh1']) {
        const expected = [...held.values()]
          .filter((d) => d.webhook_id === webhookId && d.next_attempt_at <= T(30))
          .sort((a, b) =>
            a.next_attempt_at === b.next_attempt_at
              ? a.id < b.id
                ? -1
                : 1
              : a.next_attempt_at < b.next_attempt_at
                ? -1
                : 1,
          )
          .map((d) => d.id);
        expect(due(outbox, webhookId, T(30))).toEqual(expected);
      }
      expect(outbox.size).toBe(held.size);
    }
  });

  it('empties with clear', () => {
    const outbox = new DeliveryOutbox();
    outbox.set('d1', delivery('d1', 'wh1', T(1)));
    outbox.clear();
    expect(due(outbox, 'wh1', T(9))).toEqual([]);
    expect(outbox.has('d1')).toBe(false);
  });
});
