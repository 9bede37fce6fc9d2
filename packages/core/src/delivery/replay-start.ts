/**
 * Starting a replay of the log to a webhook (`replay_since` at create, `recover`): the store keeps
 * a cursor and queues the first batch; the delivery engine queues the rest a batch at a time. A
 * replay over more events than `webhooks.replay.maxEvents`, or of a webhook whose last replay is
 * still under way, is 409 `limit_exceeded` and writes nothing.
 */
import { limitExceeded } from '../model/limits.js';
import type { StoreTransaction } from '../store/types.js';
import type { WebhookSettings } from './config.js';

/** Starts the replay of `since` to `until` to the webhook in `tx`; how many events it covers. */
export async function startReplay(
  tx: StoreTransaction,
  webhooks: WebhookSettings,
  target: { organizationId: string; webhookId: string; at: string },
  since: string,
  until?: string,
): Promise<number> {
  const started = await tx.deliveries.replay(
    target.organizationId,
    target.webhookId,
    { since, until },
    target.at,
    webhooks.replay,
  );
  if (started === 'limit') {
    throw limitExceeded(
      `A replay covers at most ${webhooks.replay.maxEvents} events (webhooks.replay.maxEvents): narrow since and until, and replay the rest afterwards.`,
    );
  }
  if (started === 'busy') {
    throw limitExceeded(
      'A replay of this webhook is still under way (one at a time): recover again once it has been delivered.',
    );
  }
  return started;
}
