/**
 * How many backups stream at once in this process: one per organization, and at most
 * {@link MAX_STREAMING_BACKUPS} in all. On PostgreSQL each holds one connection of the pool (its
 * snapshot's transaction) while its client reads, so without a bound one organization's backups
 * could hold the whole pool. Kept per store object, as the core's services hold it.
 */
import { LatchkeyError } from '../errors/latchkey-error.js';

/** Backups streaming at once in one process, across organizations. */
export const MAX_STREAMING_BACKUPS = 4;

/**
 * A slot whose body nobody has started to read after this long is taken back: its answer was
 * dropped unread (nothing is held for it until the first read opens the snapshot).
 */
const UNREAD_MS = 30_000;

interface Slot {
  takenAt: number;
  reading: boolean;
}

const streaming = new WeakMap<object, Map<string, Slot>>();

/**
 * Takes the organization's slot for `body`, or refuses: 409 `limit_exceeded` while a backup of the
 * organization streams, 503 with `Retry-After` while {@link MAX_STREAMING_BACKUPS} do. Answers
 * `body`, which gives the slot back when it ends, fails or is closed.
 */
export function inBackupSlot<T>(
  store: object,
  organizationId: string,
  now: number,
  body: AsyncIterable<T>,
): AsyncIterable<T> {
  let slots = streaming.get(store);
  if (!slots) {
    slots = new Map();
    streaming.set(store, slots);
  }
  for (const [id, slot] of slots) if (!slot.reading && now - slot.takenAt > UNREAD_MS) slots.delete(id);
  if (slots.has(organizationId)) {
    throw new LatchkeyError(
      'limit_exceeded',
      'A backup of this organization is being streamed; try again when it ends (one at a time).',
    );
  }
  if (slots.size >= MAX_STREAMING_BACKUPS) {
    throw new LatchkeyError(
      'service_unavailable',
      `${MAX_STREAMING_BACKUPS} backups are being streamed by this server; try again shortly.`,
      { retryAfterSeconds: 5 },
    );
  }
  const slot: Slot = { takenAt: now, reading: false };
  const held = slots;
  held.set(organizationId, slot);
  const release = () => {
    if (held.get(organizationId) === slot) held.delete(organizationId);
  };
  return releasing(body, slot, release);
}

/** `body`, calling `release` once when it is done, throws, or is closed (started or not). */
function releasing<T>(body: AsyncIterable<T>, slot: Slot, release: () => void): AsyncIterable<T> {
  let inner: AsyncIterator<T> | null = null;
  const iterator: AsyncIterator<T> = {
    async next() {
      slot.reading = true;
      inner ??= body[Symbol.asyncIterator]();
      try {
        const result = await inner.next();
        if (result.done) release();
        return result;
      } catch (error) {
        release();
        throw error;
      }
    },
    async return(value?: unknown) {
      try {
        await inner?.return?.(value);
      } finally {
        release();
      }
      return { done: true, value: value as T };
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
