/**
 * A long restore gives the event loop back every two milliseconds. Its passes read, parse and
 * check item after item with no I/O between them on the memory store (the parts are in memory), and
 * awaiting an async iterator only runs microtasks: without this, other requests of the process
 * would wait for whole seconds of parsing, however short the store's transactions.
 */
import { performance } from 'node:perf_hooks';

/** Longest stretch of work between two turns of the event loop, in milliseconds. */
const SLICE_MS = 2;

// `setImmediate`, after the loop has polled for I/O: requests waiting on the network or the
// database go first. (A timer instead, idling the thread a moment each turn, raised the p99 of
// other organizations' requests on PostgreSQL several-fold in a trial.)
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `items` as they come, with a turn of the event loop whenever `SLICE_MS` have passed since the last. */
export async function* breathing<T>(items: AsyncIterable<T>): AsyncGenerator<T> {
  let since = performance.now();
  for await (const item of items) {
    yield item;
    if (performance.now() - since >= SLICE_MS) {
      await turn();
      since = performance.now();
    }
  }
}
