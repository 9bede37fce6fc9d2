/**
 * Claiming due deliveries in memory, fairly (see `DeliveryRepository.claim`): each webhook's oldest
 * due, as many as its share and limits allow, organizations taking turns; each leased to the caller.
 */
import { secondOf, webhookLimit } from '../delivery/webhook-limits.js';
import type { Delivery } from '../model/model.js';
import type { ClaimedDelivery, ClaimOptions } from '../store/ports/deliveries.js';
import type { Journal, MemoryState } from './state.js';

/** Claims of each webhook in the current second: the per-second limit's count, per store. */
const claimRates = new WeakMap<MemoryState, Map<string, { second: string; claimed: number }>>();

/** Live leases by webhook: the attempts in flight on every worker. */
function liveLeases(state: MemoryState, now: string): Map<string, number> {
  const live = new Map<string, number>();
  for (const d of state.deliveries.values())
    if (d.lease_until !== null && d.lease_until > now)
      live.set(d.webhook_id, (live.get(d.webhook_id) ?? 0) + 1);
  return live;
}

/** How many deliveries of `webhookId` this claim may take at most. */
function allowance(
  state: MemoryState,
  options: ClaimOptions,
  webhookId: string,
  live: Map<string, number>,
): number {
  const { inFlight, perSecond } = webhookLimit(options.limits, webhookId);
  let most = Math.min(options.room?.[webhookId] ?? Infinity, options.perWebhook ?? Infinity, options.limit);
  if (inFlight !== null) most = Math.min(most, inFlight - (live.get(webhookId) ?? 0));
  if (perSecond !== null) {
    const rate = claimRates.get(state)?.get(webhookId);
    most = Math.min(most, perSecond - (rate?.second === secondOf(options.now) ? rate.claimed : 0));
  }
  return Math.max(0, most);
}

/**
 * Each active webhook's oldest claimable deliveries (pending, due, not leased), at most its
 * allowance, oldest first: read from the front of its due order, so a claim never walks the outbox.
 */
function headsByWebhook(state: MemoryState, options: ClaimOptions): Map<string, Delivery[]> {
  // Only an in-flight limit reads the live leases: without limits, no walk of the outbox.
  const live = options.limits ? liveLeases(state, options.now) : new Map<string, number>();
  const heads = new Map<string, Delivery[]>();
  const { now } = options;
  for (const webhookId of state.deliveries.webhookIds()) {
    if (state.webhooks.get(webhookId)?.status !== 'active') continue;
    const cap = allowance(state, options, webhookId, live);
    if (cap === 0) continue;
    const due: Delivery[] = [];
    state.deliveries.eachDue(webhookId, now, (d) => {
      if (d.state === 'pending' && (d.lease_until === null || d.lease_until <= now)) due.push(d);
      return due.length < cap;
    });
    if (due.length > 0) heads.set(webhookId, due);
  }
  return heads;
}

/** The claim, round-robin: organizations take turns, each turn going round its webhooks. */
function inTurns(heads: Map<string, Delivery[]>, limit: number): Delivery[] {
  const ranked: { d: Delivery; nth: number; turn: number }[] = [];
  for (const due of heads.values()) for (const [nth, d] of due.entries()) ranked.push({ d, nth, turn: 0 });
  ranked.sort((a, b) => a.nth - b.nth || cmp(a.d, b.d));
  const turns = new Map<string, number>();
  for (const r of ranked) {
    r.turn = turns.get(r.d.organization_id) ?? 0;
    turns.set(r.d.organization_id, r.turn + 1);
  }
  ranked.sort((a, b) => a.turn - b.turn || cmp(a.d, b.d));
  return ranked.slice(0, limit).map((r) => r.d);
}

const cmp = (a: Delivery, b: Delivery) =>
  a.next_attempt_at < b.next_attempt_at
    ? -1
    : a.next_attempt_at > b.next_attempt_at
      ? 1
      : a.id < b.id
        ? -1
        : 1;

/** Counts the claim against the per-second limits of the webhooks that have one. */
function countClaims(state: MemoryState, journal: Journal, options: ClaimOptions, claimed: Delivery[]): void {
  const second = secondOf(options.now);
  const rates = claimRates.get(state) ?? new Map<string, { second: string; claimed: number }>();
  claimRates.set(state, rates);
  for (const d of claimed) {
    if (webhookLimit(options.limits, d.webhook_id).perSecond === null) continue;
    const previous = rates.get(d.webhook_id);
    const claimedNow = previous?.second === second ? previous.claimed : 0;
    rates.set(d.webhook_id, { second, claimed: claimedNow + 1 });
    journal?.push(() => {
      if (previous) rates.set(d.webhook_id, previous);
      else rates.delete(d.webhook_id);
    });
  }
}

/** Leases the claimed deliveries to the caller until `leaseUntil` (see `DeliveryRepository.claim`). */
export function claimDue(state: MemoryState, journal: Journal, options: ClaimOptions): ClaimedDelivery[] {
  const claimed = inTurns(headsByWebhook(state, options), options.limit);
  countClaims(state, journal, options, claimed);
  return claimed.map((delivery) => {
    const previous = delivery.lease_until;
    delivery.lease_until = options.leaseUntil;
    journal?.push(() => {
      delivery.lease_until = previous;
    });
    const webhook = state.webhooks.get(delivery.webhook_id)!;
    const event = state.events.get(delivery.organization_id)![delivery.event_seq - 1]!;
    return {
      delivery: { ...delivery },
      webhook: {
        id: webhook.id,
        organization_id: webhook.organization_id,
        name: webhook.name,
        url: webhook.url,
        secret_sealed: webhook.secret_sealed,
        headers: (webhook.headers ?? []).map((header) => ({ ...header })),
        client_certificate: webhook.client_certificate ? { ...webhook.client_certificate } : null,
        signature_scheme: webhook.signature_scheme ?? 'latchkey',
        previous_secret: webhook.previous_secret ?? null,
      },
      eventJson: JSON.stringify(event),
      eventType: event.type,
    };
  });
}

/** See `DeliveryRepository.release`. */
export function releaseClaims(
  state: MemoryState,
  journal: Journal,
  claims: readonly { id: string; lease: string | null }[],
): number {
  let released = 0;
  for (const { id, lease } of claims) {
    const delivery = state.deliveries.get(id);
    if (!delivery || lease === null || delivery.lease_until !== lease) continue;
    delivery.lease_until = null;
    journal?.push(() => {
      delivery.lease_until = lease;
    });
    released++;
  }
  return released;
}
