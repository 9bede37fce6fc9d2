/**
 * The claimed deliveries waiting for a slot (see `engine/slots.ts`): a queue per webhook, in claim
 * order, each delivery numbered as it comes so the order across webhooks is kept too. The running
 * engine keeps about two batches queued; picking the next one looks at each webhook's first only,
 * however many wait behind it.
 */
import type { ClaimedDelivery } from '../../store/ports/deliveries.js';

interface Queued {
  claimed: ClaimedDelivery;
  /** Its place in claim order across webhooks. */
  n: number;
}

export class WebhookQueues {
  private readonly byWebhook = new Map<string, Queued[]>();
  private count = 0;
  private numbered = 0;

  /** Deliveries queued. */
  get size(): number {
    return this.count;
  }

  /** Deliveries of webhook `id` queued. */
  of(id: string): number {
    return this.byWebhook.get(id)?.length ?? 0;
  }

  /** The webhooks with deliveries queued, and how many each. */
  *counts(): IterableIterator<[string, number]> {
    for (const [id, queue] of this.byWebhook) yield [id, queue.length];
  }

  push(claimed: ClaimedDelivery): void {
    const id = claimed.webhook.id;
    let queue = this.byWebhook.get(id);
    if (!queue) {
      queue = [];
      this.byWebhook.set(id, queue);
    }
    queue.push({ claimed, n: this.numbered++ });
    this.count++;
  }

  /**
   * Takes out the first queued of the webhook with the fewest `inFlight`, below `share`; the first
   * queued among equals. Undefined when every webhook with deliveries queued holds its share.
   */
  take(inFlight: (id: string) => number, share: number): ClaimedDelivery | undefined {
    let best: Queued[] | undefined;
    let bestId = '';
    let fewest = share;
    for (const [id, queue] of this.byWebhook) {
      const n = inFlight(id);
      if (n < fewest || (n === fewest && best !== undefined && queue[0]!.n < best[0]!.n)) {
        best = queue;
        bestId = id;
        fewest = n;
      }
    }
    if (!best) return undefined;
    return this.shift(bestId, best);
  }

  /**
   * Drops from the front of each webhook's queue the deliveries `expired` says to drop (a claim
   * leases its batch until one time, so a queue's leases end in order); how many it dropped.
   */
  dropFront(expired: (claimed: ClaimedDelivery) => boolean): number {
    let dropped = 0;
    for (const [id, queue] of this.byWebhook) {
      while (queue.length > 0 && expired(queue[0]!.claimed)) {
        this.shift(id, queue);
        dropped++;
      }
    }
    return dropped;
  }

  /** Takes every queued delivery out, in claim order. */
  takeAll(): ClaimedDelivery[] {
    const all = [...this.byWebhook.values()].flat().sort((a, b) => a.n - b.n);
    this.byWebhook.clear();
    this.count = 0;
    return all.map((queued) => queued.claimed);
  }

  private shift(id: string, queue: Queued[]): ClaimedDelivery {
    const first = queue.shift()!;
    if (queue.length === 0) this.byWebhook.delete(id);
    this.count--;
    return first.claimed;
  }
}
