/**
 * A connection taken from the pool for a while (a transaction, a COPY, a LISTEN). node-postgres
 * removes the pool's own 'error' listener from a client while it is checked out, and a client whose
 * socket breaks emits 'error' even when no query is running: with nobody listening, that event
 * would end the process. So a checked-out client always has a listener, which remembers the loss;
 * the query in flight, if any, fails on its own and is translated as usual.
 */
import type { Pool, PoolClient } from 'pg';
import { translated } from '../translated.js';

/** A checked-out client, and how to give it back. */
export interface HeldClient {
  readonly client: PoolClient;
  /** The error that broke the connection while it was held, if one did. */
  readonly lost: unknown;
  /** Calls `listener` when the connection breaks while it is held. */
  onLost(listener: (error: Error) => void): void;
  /**
   * Gives the client back to the pool, or destroys it when `destroy` is true or its connection was
   * lost. Does nothing the second time.
   */
  release(destroy?: boolean): void;
}

const ignore = () => {};

/** Takes a client from `pool`; a failure to get one is translated (503 when the database is away). */
export async function checkout(pool: Pool): Promise<HeldClient> {
  const client = await translated(() => pool.connect());
  let lost: unknown;
  let released = false;
  const listeners: ((error: Error) => void)[] = [];
  const onError = (error: Error) => {
    if (lost !== undefined) return;
    lost = error;
    for (const listener of listeners) listener(error);
  };
  client.on('error', onError);
  return {
    client,
    get lost() {
      return lost;
    },
    onLost(listener) {
      listeners.push(listener);
    },
    release(destroy = false) {
      if (released) return;
      released = true;
      listeners.length = 0;
      if (destroy || lost !== undefined) {
        // A destroyed client may still report its socket's end: it keeps a listener for good.
        client.removeListener('error', onError);
        client.on('error', ignore);
        client.release(true);
      } else {
        client.removeListener('error', onError);
        client.release();
      }
    },
  };
}
