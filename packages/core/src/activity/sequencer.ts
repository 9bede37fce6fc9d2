/**
 * Waiting for a committed push's event to be sealed, with group commit. A store that sequences in
 * batches (`activity.sealPending`) leaves a push's event pending when the push commits; the push
 * answers once a seal that began after its commit has ended, since such a seal seals every event
 * of the organization it finds pending, and at least the events handed to it (`own`: the pushes of
 * this process that wait for it). In one process, concurrent pushes of an organization share
 * seals: while one runs, every push that committed meanwhile waits for it and then shares the one
 * seal that follows.
 */
import type { ActivityRepository, PendingEvent } from '../store/ports/activity.js';

interface Lane {
  running: Promise<unknown> | null;
  next: Promise<unknown> | null;
  /** The events of the pushes waiting for the next seal to begin, in the order they committed. */
  waiting: PendingEvent[];
}

const lanes = new WeakMap<object, Map<string, Lane>>();

/** Tries a failed seal once more before giving up (the event stays pending for the next seal). */
const ATTEMPTS = 2;

/**
 * Resolves once every event of the organization that was pending when it was called is sealed
 * (at once for stores that seal inline), `stored` (the caller's own pending event, when the store
 * described it) among them. `owner` names the process's store: calls with the same owner and
 * organization coalesce.
 */
export function sealCommitted(
  owner: object,
  activity: ActivityRepository,
  organizationId: string,
  stored?: PendingEvent,
): Promise<unknown> {
  const seal = activity.sealPending?.bind(activity);
  if (!seal) return Promise.resolve();
  const byOrganization = lanes.get(owner) ?? new Map<string, Lane>();
  lanes.set(owner, byOrganization);
  const lane = byOrganization.get(organizationId) ?? { running: null, next: null, waiting: [] };
  byOrganization.set(organizationId, lane);
  if (stored) lane.waiting.push(stored);
  const run = async (own: PendingEvent[]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await seal(organizationId, own);
      } catch (error) {
        if (attempt >= ATTEMPTS) throw error;
      }
    }
  };
  return request(lane, run, () => byOrganization.delete(organizationId));
}

type Run = (own: PendingEvent[]) => Promise<unknown>;

/** The seal this caller waits for: the next one to begin, or one beginning now when none runs. */
function request(lane: Lane, run: Run, idle: () => void): Promise<unknown> {
  if (lane.next) return lane.next;
  if (lane.running === null) return begin(lane, run, idle);
  const next = lane.running
    .then(
      () => undefined,
      () => undefined,
    )
    .then(() => {
      lane.next = null;
      return begin(lane, run, idle);
    });
  lane.next = next;
  return next;
}

/** Begins a seal of the waiting pushes' events (and whatever else it finds pending). */
function begin(lane: Lane, run: Run, idle: () => void): Promise<unknown> {
  const own = lane.waiting;
  lane.waiting = [];
  const running: Promise<unknown> = run(own).finally(() => {
    if (lane.running !== running) return;
    lane.running = null;
    if (lane.next === null) idle();
  });
  lane.running = running;
  return running;
}
