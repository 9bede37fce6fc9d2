/**
 * The running loop. It keeps up to `concurrency` attempts in flight, at most `webhookShare` of them
 * for one webhook, and claims ahead: whenever fewer than a batch of deliveries are queued, it claims
 * a batch (one transaction however many it brings), so a freed slot never waits for a claim. A
 * whole batch, not just the slots: under load a claim takes a few milliseconds (its round trip,
 * and the turns of an event loop busy with sending), in which a busy engine starts dozens of
 * deliveries; a queue shorter than that runs dry and the slots wait for the claim.
 * Woken (something was queued) or at each poll it claims whatever the queue holds, so deliveries
 * queued behind a webhook that holds its share (a hanging receiver) never keep another webhook's
 * from being claimed. When nothing more is due it sleeps until woken, the next poll, or a slot
 * freeing. On stop, claims not started are given back.
 */
import { describeError } from '../../errors/describe-error.js';
import { claimDue } from './claim.js';
import type { EngineSettings } from './options.js';
import type { InFlight } from './slots.js';

/** What the loop works with besides the settings. */
export interface LoopParts {
  settings: EngineSettings;
  slots: InFlight;
  running(): boolean;
  /** Sleeps until woken, `ms` have passed or `until` resolves. */
  sleep(ms: number, until?: Promise<void>): Promise<void>;
  pruneIfDue(): Promise<void>;
  /** Moves replays on by a batch when due; how many deliveries that queued. */
  replayIfDue(): Promise<number>;
}

/** Runs until `running()` turns false, then gives back what is queued and waits for the attempts in flight. */
export async function runLoop(parts: LoopParts): Promise<void> {
  const { settings, slots } = parts;
  // Woken or polled since the last claim: something may be due that the queue must not delay.
  let woken = true;
  const low = settings.batchSize;
  while (parts.running()) {
    await parts.pruneIfDue();
    // A replay's next batch is claimed at once, like anything queued.
    if ((await parts.replayIfDue()) > 0) woken = true;
    if (woken || slots.queued < low) {
      const { asked, got } = await claimAhead(settings, slots);
      woken = false;
      if (!parts.running()) break;
      // A full batch: there is likely more due; claim again while the queue is short.
      if (got === asked && slots.queued < low) continue;
    }
    if (slots.size === 0 && slots.queued === 0) {
      // Nothing more is due: wait for a wake-up or the poll.
      await parts.sleep(settings.pollIntervalMs);
      woken = true;
    } else {
      // Busy: look again when a slot frees (the queue shrinks), on a wake-up or at the poll.
      let freed = false;
      const slotFrees = slots.aSlotFrees().then(() => {
        freed = true;
      });
      await parts.sleep(settings.pollIntervalMs, slotFrees);
      woken ||= !freed;
    }
  }
  await giveBack(settings, slots);
  await slots.settled();
}

/** Claims a batch into the queue; how many it asked for and got. */
async function claimAhead(
  settings: EngineSettings,
  slots: InFlight,
): Promise<{ asked: number; got: number }> {
  const asked = settings.batchSize;
  try {
    // One webhook may hold its share of the slots, a queue just short of a batch and a batch more:
    // a claim made as the queue runs short still brings a whole batch when one webhook is busy,
    // and no more, so its deliveries never wait long on their leases.
    const cap = settings.webhookShare + 2 * settings.batchSize;
    const claimed = await claimDue(settings, asked, { perWebhook: cap, room: slots.room(cap) });
    slots.enqueue(claimed);
    return { asked, got: claimed.length };
  } catch (error) {
    settings.logger.error('claiming due deliveries failed', { error: describeError(error) });
    return { asked, got: 0 };
  }
}

/** Gives back the claims of the deliveries queued but not started, so other engines take them now. */
async function giveBack(settings: EngineSettings, slots: InFlight): Promise<void> {
  const queued = slots.takeQueued();
  if (queued.length === 0) return;
  try {
    await settings.store.deliveries.release(
      queued.map((claimed) => ({ id: claimed.delivery.id, lease: claimed.delivery.lease_until })),
    );
  } catch (error) {
    // Their leases end in time and they are claimed again.
    settings.logger.error('giving back unstarted claims failed', { error: describeError(error) });
  }
}
