/** Reading and pruning the attempt log and the outbox in memory. */
import type { Delivery } from '../model/model.js';
import type { AttemptPage, DeliveryBacklog } from '../store/ports/deliveries.js';
import { clone, type Journal, type MemoryState } from './state.js';

/** See `DeliveryRepository.attempts`. */
export function attemptPage(
  state: MemoryState,
  organizationId: string,
  webhookId: string,
  { limit, beforeId }: { limit: number; beforeId?: string },
): AttemptPage {
  const webhook = state.webhooks.get(webhookId);
  if (!webhook || webhook.organization_id !== organizationId) return { attempts: [], next: null };
  const list = state.attempts.get(webhookId) ?? [];
  let end = list.length;
  if (beforeId !== undefined) {
    const index = list.findIndex((a) => a.id === beforeId);
    end = index === -1 ? 0 : index;
  }
  const page = list.slice(Math.max(0, end - limit), end).reverse();
  return { attempts: page.map(clone), next: end - limit > 0 ? page[page.length - 1]!.id : null };
}

/** See `DeliveryRepository.pruneAttempts`. */
export function pruneAttempts(state: MemoryState, journal: Journal, before: string, batch: number): number {
  let removed = 0;
  for (const [webhookId, list] of state.attempts) {
    // Oldest first: the old attempts are at the front.
    let n = 0;
    while (n < list.length && list[n]!.at < before && removed + n < batch) n++;
    if (n === 0) continue;
    state.attempts.set(webhookId, list.slice(n));
    journal?.push(() => state.attempts.set(webhookId, list));
    removed += n;
    if (removed >= batch) break;
  }
  return removed;
}

/** See `DeliveryRepository.count`. */
export function countDeliveries(
  state: MemoryState,
  organizationId: string,
  webhookId: string,
  wanted: Delivery['state'],
): number {
  let n = 0;
  for (const d of state.deliveries.ofWebhook(webhookId)) {
    if (d.organization_id === organizationId && d.state === wanted) n++;
  }
  return n;
}

/** See `DeliveryRepository.backlog`. */
export function deliveryBacklog(state: MemoryState, now: string): DeliveryBacklog[] {
  const byOrganization = new Map<string, DeliveryBacklog>();
  for (const delivery of state.deliveries.values()) {
    if (delivery.state !== 'pending') continue;
    const id = delivery.organization_id;
    const entry = byOrganization.get(id) ?? { organizationId: id, pending: 0, oldestDueAt: null };
    entry.pending++;
    const due = delivery.next_attempt_at;
    if (due <= now && (entry.oldestDueAt === null || due < entry.oldestDueAt)) entry.oldestDueAt = due;
    byOrganization.set(id, entry);
  }
  return [...byOrganization.values()];
}
