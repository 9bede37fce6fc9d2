/**
 * The harness's end of the IPC channel to a spawned server under test: requests answered by id,
 * deliveries told unasked, every pending request failed (with the server's last words) if the
 * server ends.
 */
import type { ChildProcess } from 'node:child_process';
import type { SentDelivery } from '../harness/fake-network.js';
import { fromRemoteError, type RemoteAnswer, type RemoteRequest, type RemoteSent } from './protocol.js';

/** A request without its id (the channel numbers it). */
export type RemoteAsk = RemoteRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** Sends one request and resolves with the server's answer (or rejects with its error). */
export type Ask = <T = unknown>(request: RemoteAsk) => Promise<T>;

/** Opens the channel over `child`'s IPC; `why` says why the server ended, once it has. */
export function openChannel(
  child: ChildProcess,
  onSent: (sent: SentDelivery) => void,
  why: () => string,
): Ask {
  let next = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (message: RemoteAnswer | RemoteSent) => {
    if ('sent' in message) return onSent(message.sent);
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiting?.resolve(message.value);
    else waiting?.reject(fromRemoteError(message.error));
  });
  child.on('exit', () => {
    for (const waiting of pending.values())
      waiting.reject(new Error(`the server under test ended: ${why()}`));
    pending.clear();
  });
  return <T>(request: RemoteAsk) =>
    new Promise<T>((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        reject(new Error(`the server under test ended: ${why()}`));
        return;
      }
      const id = ++next;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        child.send({ id, ...request });
      } catch (error) {
        pending.delete(id);
        reject(new Error(`cannot send ${request.op} to the server: ${(error as Error).message}`));
      }
    });
}
