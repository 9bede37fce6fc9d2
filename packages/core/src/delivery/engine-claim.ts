/**
 * Claiming due deliveries, fairly and leased so that several engines share the work and a crashed one's
 * claims are taken over when its lease ends.
 */
import type { ClaimedDelivery } from '../store/ports/deliveries.js';
import type { EngineSettings } from './engine-options.js';

/**
 * Claims up to `limit` deliveries due now, leased for the engine's `leaseMs`, fairly: the store
 * takes turns over organizations and webhooks and applies the per-webhook limits (see
 * `DeliveryRepository.claim`); `share` caps one webhook's deliveries in this claim and `room` the
 * webhooks already in flight here, so no webhook gets more than its share of the engine's slots.
 */
export function claimDue(
  settings: Pick<EngineSettings, 'store' | 'now' | 'leaseMs' | 'limits'>,
  limit: number,
  share?: { perWebhook: number; room: Record<string, number> },
): Promise<ClaimedDelivery[]> {
  const at = settings.now();
  return settings.store.deliveries.claim({
    now: new Date(at).toISOString(),
    limit,
    leaseUntil: new Date(at + settings.leaseMs).toISOString(),
    ...(share ?? {}),
    ...(settings.limits ? { limits: settings.limits } : {}),
  });
}
