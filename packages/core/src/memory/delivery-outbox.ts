/**
 * The memory store's delivery outbox: a map of the deliveries still owed that also keeps each
 * webhook's deliveries sorted by due time (`next_attempt_at`, then id: the order a claim takes them
 * in, as PostgreSQL's index does), so a claim reads each webhook's oldest due deliveries instead of
 * walking the whole outbox.
 *
 * The order follows the map: `set` files a delivery (again) under its current due time and `delete`
 * takes it out. A delivery's due time is changed in place, so whoever changes it sets the delivery
 * again afterwards (an undo too), which moves it to its new place.
 */
import type { Delivery } from '../model/model.js';

/** A delivery filed under the due time it had when it was set; `gone` once taken out. */
interface Filed {
  at: string;
  id: string;
  delivery: Delivery;
  gone: boolean;
}

/**
 * One webhook's deliveries in due order. Taking one out only marks it gone (deliveries mostly leave
 * from the front, and a splice there moves the whole array): `head` skips the gone at the front,
 * and the gone are dropped in one pass once they are at least half.
 */
interface Sorted {
  entries: Filed[];
  head: number;
  gone: number;
}

/** Whether `a` goes before `b`: due earlier, or due together with a lower id. */
const before = (a: Filed, b: Filed) => a.at < b.at || (a.at === b.at && a.id < b.id);

/** The deliveries still owed by id, and each webhook's sorted by due time. */
export class DeliveryOutbox extends Map<string, Delivery> {
  private readonly byWebhook = new Map<string, Sorted>();
  private readonly filed = new Map<string, Filed>();

  /** Stores `delivery` under `id` and files it under its current due time. */
  override set(id: string, delivery: Delivery): this {
    this.unfile(id);
    super.set(id, delivery);
    const entry: Filed = { at: delivery.next_attempt_at, id, delivery, gone: false };
    let sorted = this.byWebhook.get(delivery.webhook_id);
    if (sorted === undefined) {
      sorted = { entries: [], head: 0, gone: 0 };
      this.byWebhook.set(delivery.webhook_id, sorted);
    }
    const { entries } = sorted;
    // New deliveries are mostly the latest due: look from the end first.
    if (entries.length === 0 || before(entries[entries.length - 1]!, entry)) entries.push(entry);
    else {
      const at = position(entries, entry);
      entries.splice(at, 0, entry);
      sorted.head = Math.min(sorted.head, at);
    }
    this.filed.set(id, entry);
    return this;
  }

  /** Removes the delivery under `id`, from the map and its webhook's order. */
  override delete(id: string): boolean {
    this.unfile(id);
    return super.delete(id);
  }

  /** Removes every delivery. */
  override clear(): void {
    this.byWebhook.clear();
    this.filed.clear();
    super.clear();
  }

  /** The webhooks with deliveries owed. */
  webhookIds(): IterableIterator<string> {
    return this.byWebhook.keys();
  }

  /**
   * The deliveries of `webhookId` due at `now` (by the time they were set under), oldest first,
   * each passed to `take` until it returns false.
   */
  eachDue(webhookId: string, now: string, take: (delivery: Delivery) => boolean): void {
    const sorted = this.byWebhook.get(webhookId);
    if (sorted === undefined) return;
    const { entries } = sorted;
    for (let i = sorted.head; i < entries.length; i++) {
      const entry = entries[i]!;
      if (entry.gone) continue;
      if (entry.at > now || !take(entry.delivery)) return;
    }
  }

  /** The deliveries owed to `webhookId`, oldest due first. */
  *ofWebhook(webhookId: string): IterableIterator<Delivery> {
    const sorted = this.byWebhook.get(webhookId);
    if (sorted === undefined) return;
    const { entries, head } = sorted;
    for (let i = head; i < entries.length; i++) if (!entries[i]!.gone) yield entries[i]!.delivery;
  }

  /** Takes the delivery under `id` out of its webhook's order, if filed. */
  private unfile(id: string): void {
    const entry = this.filed.get(id);
    if (entry === undefined) return;
    this.filed.delete(id);
    entry.gone = true;
    const webhookId = entry.delivery.webhook_id;
    const sorted = this.byWebhook.get(webhookId)!;
    sorted.gone++;
    const { entries } = sorted;
    if (sorted.gone === entries.length) this.byWebhook.delete(webhookId);
    else if (sorted.gone * 2 >= entries.length) {
      sorted.entries = entries.filter((e) => !e.gone);
      sorted.head = 0;
      sorted.gone = 0;
    } else while (entries[sorted.head]?.gone) sorted.head++;
  }
}

/** Where `entry` goes in `entries` (before the first entry it goes before; gone ones keep their place). */
function position(entries: readonly Filed[], entry: Filed): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (before(entries[middle]!, entry)) low = middle + 1;
    else high = middle;
  }
  return low;
}
