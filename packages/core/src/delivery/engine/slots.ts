/**
 * Bounded concurrency for the engine's attempts: a batch worked through by a fixed number of
 * workers (`runOnce`), and the running loop's slots with the claimed deliveries queued for them.
 *
 * The loop claims ahead (a batch at a time, one transaction), so a slot that frees starts the next
 * queued delivery at once instead of waiting for a claim. A webhook never has more than its share
 * of the slots: its queued deliveries wait while it holds them, and those of others go first. A
 * queued delivery whose lease would end before its attempt could is not sent (another claim takes
 * it up once the lease ends), so nothing is ever sent outside its lease.
 */
import type { ClaimedDelivery } from '../../store/ports/deliveries.js';
import { WebhookQueues } from './queue.js';

/** Attempts `claimed` with at most `concurrency` at once, taking them in order. */
export async function attemptAll(
  claimed: readonly ClaimedDelivery[],
  concurrency: number,
  attempt: (claimed: ClaimedDelivery) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, claimed.length) }, async () => {
    while (next < claimed.length) await attempt(claimed[next++]!);
  });
  await Promise.all(workers);
}

/** How the slots are shared. */
export interface SlotSettings {
  concurrency: number;
  /** Slots one webhook may hold. */
  webhookShare: number;
  now(): number;
  /** A queued delivery is started only while at least this long is left of its lease, in ms. */
  leaseMarginMs: number;
}

/** The attempts in flight in the running loop, by webhook, the deliveries queued for them. */
export class InFlight {
  private readonly running = new Set<Promise<void>>();
  private readonly byWebhook = new Map<string, number>();
  private readonly queue = new WebhookQueues();
  private slotFreed: (() => void) | null = null;
  /** Queued deliveries dropped because too little of their lease was left. */
  expired = 0;

  constructor(
    private readonly attempt: (claimed: ClaimedDelivery) => Promise<void>,
    private readonly settings: SlotSettings,
  ) {}

  /** Attempts in flight now. */
  get size(): number {
    return this.running.size;
  }

  /** Deliveries claimed and waiting for a slot. */
  get queued(): number {
    return this.queue.size;
  }

  /**
   * By webhook in flight or queued here: how many more of it a claim may bring, given `cap` each
   * (a webhook not listed may bring `cap`).
   */
  room(cap: number): Record<string, number> {
    const held = new Map(this.byWebhook);
    for (const [id, n] of this.queue.counts()) held.set(id, (held.get(id) ?? 0) + n);
    const room: Record<string, number> = {};
    for (const [id, n] of held) room[id] = Math.max(0, cap - n);
    return room;
  }

  /** Queues claimed deliveries, in claim order, and starts as many as the slots allow. */
  enqueue(claimed: readonly ClaimedDelivery[]): void {
    for (const one of claimed) this.queue.push(one);
    this.pump();
  }

  /** Takes every queued delivery out, unstarted (to give its claim back). */
  takeQueued(): ClaimedDelivery[] {
    return this.queue.takeAll();
  }

  /**
   * Starts queued deliveries while slots are free: each time the one whose webhook has the fewest
   * in flight (below its share), the first queued among equals, so a webhook with nothing in
   * flight goes before the queue of one that holds many slots.
   */
  private pump(): void {
    const { concurrency, webhookShare } = this.settings;
    if (this.queue.size === 0) return;
    const latest = this.settings.now() + this.settings.leaseMarginMs;
    const expired = (claimed: ClaimedDelivery) => !this.leaseLeft(claimed, latest);
    this.expired += this.queue.dropFront(expired);
    const inFlight = (id: string) => this.byWebhook.get(id) ?? 0;
    while (this.running.size < concurrency) {
      const next = this.queue.take(inFlight, webhookShare);
      if (!next) return;
      // Leases end in claim order, so dropping the fronts dropped every expired one; checked again
      // here all the same, so nothing is sent outside its lease whatever the clock did.
      if (expired(next)) this.expired++;
      else this.launch(next);
    }
  }

  /** Whether `claimed`'s lease lasts past `latest` (ms since the epoch). */
  private leaseLeft(claimed: ClaimedDelivery, latest: number): boolean {
    const lease = claimed.delivery.lease_until;
    return lease === null || this.leaseEnd(lease) > latest;
  }

  /** The last lease parsed: a claim leases its whole batch until one time, checked at every start. */
  private parsedLease = { text: '', ms: 0 };

  /** `lease` in ms since the epoch. */
  private leaseEnd(lease: string): number {
    if (this.parsedLease.text !== lease) this.parsedLease = { text: lease, ms: Date.parse(lease) };
    return this.parsedLease.ms;
  }

  /** Starts attempting `claimed` without waiting for it; when it ends, the next queued one starts. */
  private launch(claimed: ClaimedDelivery): void {
    const id = claimed.webhook.id;
    this.byWebhook.set(id, (this.byWebhook.get(id) ?? 0) + 1);
    const running = this.attempt(claimed).finally(() => {
      const left = this.byWebhook.get(id)! - 1;
      if (left === 0) this.byWebhook.delete(id);
      else this.byWebhook.set(id, left);
      this.running.delete(running);
      this.pump();
      this.slotFreed?.();
    });
    this.running.add(running);
  }

  /** Resolves when an attempt in flight finishes (a slot is free). */
  aSlotFrees(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.slotFreed = () => {
        this.slotFreed = null;
        resolve();
      };
    });
  }

  /** Resolves when every attempt in flight has finished. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}
