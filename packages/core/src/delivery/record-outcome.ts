/**
 * Recording attempts' outcomes: the attempt rows and the deliveries' next states, and for a dead
 * letter the `audit_webhook_dead_lettered` event, in one transaction however many there are.
 * Nothing is written for an attempt whose lease was lost meanwhile (another engine took it over).
 */
import { eventDraft } from '../activity/event-types/index.js';
import type { DeliveryAttempt } from '../model/model.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { AttemptRecord, ClaimedDelivery } from '../store/ports/deliveries.js';
import type { LatchkeyStore, StoreTransaction } from '../store/ports/store.js';

/** An attempt sent and decided on, not yet recorded. */
export interface DecidedAttempt {
  claimed: ClaimedDelivery;
  attempt: DeliveryAttempt;
  outcome: AttemptRecord['outcome'];
  /** The receiver answered 410 Gone (a dead letter then says so rather than "retries exhausted"). */
  gone: boolean;
}

/** What recording needs: the store, and ids and time for a dead letter's event. */
export interface RecordServices {
  store: LatchkeyStore;
  ids: IdGenerator;
  now(): number;
}

/**
 * Records decided attempts in order, in one transaction (the store's `recordMany`), with the dead
 * letters' events; returns each one's outcome, or `lost` for those whose lease was lost meanwhile.
 */
export async function recordOutcomes(
  services: RecordServices,
  decided: readonly DecidedAttempt[],
): Promise<(AttemptRecord['outcome'] | 'lost')[]> {
  return services.store.transaction(async (tx) => {
    const recorded = await tx.deliveries.recordMany(
      decided.map(({ claimed, attempt, outcome }) => ({
        attempt,
        outcome,
        lease: claimed.delivery.lease_until,
      })),
    );
    for (const [i, one] of decided.entries())
      if (recorded[i] && one.outcome === 'dead_letter') await appendDeadLetter(tx, services, one);
    return decided.map((one, i) => (recorded[i] ? one.outcome : 'lost'));
  });
}

/** The `audit_webhook_dead_lettered` event of a delivery given up on. */
async function appendDeadLetter(
  tx: StoreTransaction,
  services: RecordServices,
  { claimed, attempt, gone }: DecidedAttempt,
): Promise<void> {
  await tx.activity.append(
    claimed.webhook.organization_id,
    eventDraft({
      id: services.ids('evt'),
      type: 'audit_webhook_dead_lettered',
      occurred_at: new Date(services.now()).toISOString(),
      organization: (await tx.organizations.getById(claimed.webhook.organization_id))?.slug ?? '',
      actor: { type: 'system', id: 'delivery-engine' },
      data: {
        webhook_id: claimed.webhook.id,
        name: claimed.webhook.name,
        host: new URL(claimed.webhook.url).host,
        event_id: claimed.delivery.event_id,
        attempts: attempt.attempt,
        reason: gone ? 'gone' : 'retries_exhausted',
        last_error: attempt.error,
      },
    }),
  );
}
