/**
 * Claiming due deliveries, fairly and leased so that several engines share the work and a crashed one's
 * claims are taken over when its lease ends.
 */
import type { ClaimedDelivery } from '../../store/ports/deliveries.js';
import { readDeliveredTrees } from '../delivered-tree.js';
import type { EngineSettings } from './options.js';

/**
 * Claims up to `limit` deliveries due now, leased for the engine's `leaseMs`, fairly: the store
 * takes turns over organizations and webhooks and applies the per-webhook limits (see
 * `DeliveryRepository.claim`); `share` caps one webhook's deliveries in this claim and `room` the
 * webhooks already in flight here, so no webhook gets more than its share of the engine's slots.
 * The `tree` fields of the claimed events are read at once, one read for the batch, into the
 * engine's cache, where their attempts find them.
 */
export async function claimDue(
  settings: Pick<EngineSettings, 'store' | 'now' | 'leaseMs' | 'limits'> & {
    services: Pick<EngineSettings['services'], 'trees'>;
  },
  limit: number,
  share?: { perWebhook: number; room: Record<string, number> },
): Promise<ClaimedDelivery[]> {
  const at = settings.now();
  const claimed = await settings.store.deliveries.claim({
    now: new Date(at).toISOString(),
    limit,
    leaseUntil: new Date(at + settings.leaseMs).toISOString(),
    ...(share ?? {}),
    ...(settings.limits ? { limits: settings.limits } : {}),
  });
  const { trees } = settings.services;
  if (trees && claimed.length > 0)
    readDeliveredTrees(
      settings.store,
      claimed.map(({ delivery, eventJson }) => ({
        organizationId: delivery.organization_id,
        seq: delivery.event_seq,
        json: eventJson,
      })),
      trees,
    );
  return claimed;
}
