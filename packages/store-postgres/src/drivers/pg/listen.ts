/**
 * LISTEN on node-postgres: one connection of the pool is held for as long as someone listens. When
 * it breaks (a database restart, a network cut), another is taken and LISTEN issued again, retrying
 * with a growing pause (at most {@link MAX_PAUSE_MS}) for as long as the database stays away.
 */
import type { Pool } from 'pg';
import { translated } from '../translated.js';
import { checkout, type HeldClient } from './checkout.js';

/** The first pause before listening again, and the longest. */
const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 1_000;

/**
 * Calls `onNotify` for each notification on `channel` until the returned function is called. The
 * first LISTEN must succeed (its failure is thrown); later losses are repaired in the background.
 */
export async function listenOn(
  pool: Pool,
  channel: string,
  onNotify: () => void,
): Promise<() => Promise<void>> {
  const quoted = `"${channel.replace(/"/g, '""')}"`;
  let held: HeldClient | null = null;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | null = null;

  const connect = async (): Promise<void> => {
    const next = await checkout(pool);
    next.client.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    try {
      await next.client.query(`LISTEN ${quoted}`);
    } catch (error) {
      next.release(true);
      throw error;
    }
    if (stopped) {
      next.release(true);
      return;
    }
    held = next;
    next.onLost(() => {
      if (held !== next) return;
      held = null;
      next.release(true);
      again(FIRST_PAUSE_MS);
    });
    // Whatever was queued while no one listened is found by this wake-up.
    onNotify();
  };

  function again(pause: number): void {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch(() => again(Math.min(pause * 2, MAX_PAUSE_MS)));
    }, pause);
    retry.unref();
  }

  await translated(connect);
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    retry = null;
    const current = held;
    held = null;
    if (!current) return;
    try {
      await current.client.query(`UNLISTEN ${quoted}`);
      current.release();
    } catch {
      current.release(true);
    }
  };
}
