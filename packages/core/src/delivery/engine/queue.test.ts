import { describe, expect, it } from 'vitest';
import type { ClaimedDelivery } from '../../store/ports/deliveries.js';
import { WebhookQueues } from './queue.js';

/** A claimed delivery `id` of webhook `webhook`, leased until `lease`; only the fields the queue reads. */
const claimed = (id: string, webhook: string, lease = '2030-01-01T00:00:00.000Z') =>
  ({ delivery: { id, lease_until: lease }, webhook: { id: webhook } }) as unknown as ClaimedDelivery;

const ids = (list: (ClaimedDelivery | undefined)[]) => list.map((c) => c?.delivery.id);

function queues(...list: ClaimedDelivery[]): WebhookQueues {
  const q = new WebhookQueues();
  for (const one of list) q.push(one);
  return q;
}

describe('the queues of claimed deliveries', () => {
  it('takes the webhook with the fewest in flight, the first queued among equals', () => {
    const q = queues(claimed('a1', 'a'), claimed('a2', 'a'), claimed('b1', 'b'), claimed('c1', 'c'));
    const inFlight = new Map([
      ['a', 1],
      ['b', 0],
      ['c', 0],
    ]);
    const n = (id: string) => inFlight.get(id) ?? 0;
    expect(ids([q.take(n, 4)])).toEqual(['b1']);
    expect(ids([q.take(n, 4)])).toEqual(['c1']);
    expect(ids([q.take(n, 4), q.take(n, 4), q.take(n, 4)])).toEqual(['a1', 'a2', undefined]);
    expect(q.size).toBe(0);
  });

  it('never takes from a webhook holding its share', () => {
    const q = queues(claimed('a1', 'a'), claimed('b1', 'b'));
    const n = (id: string) => (id === 'a' ? 2 : 3);
    expect(q.take(n, 2)).toBeUndefined();
    expect(ids([q.take(n, 4)])).toEqual(['a1']);
    expect([q.size, q.of('a'), q.of('b')]).toEqual([1, 0, 1]);
  });

  it('counts by webhook, drops expired fronts, and gives everything back in claim order', () => {
    const old = '2020-01-01T00:00:00.000Z';
    const q = queues(
      claimed('a1', 'a', old),
      claimed('b1', 'b'),
      claimed('a2', 'a', old),
      claimed('a3', 'a'),
      claimed('b2', 'b'),
    );
    expect(Object.fromEntries(q.counts())).toEqual({ a: 3, b: 2 });
    expect(q.dropFront((c) => c.delivery.lease_until === old)).toBe(2);
    expect(q.size).toBe(3);
    expect(ids(q.takeAll())).toEqual(['b1', 'a3', 'b2']);
    expect([q.size, [...q.counts()]]).toEqual([0, []]);
  });
});
