/**
 * The store as the core uses it: every `transaction` in a `latchkey.store.transaction` span, a
 * child of the request (or delivery attempt) that opened it. Everything else is the store itself.
 */
import type { LatchkeyStore } from '../store/ports/store.js';
import { traceSpan } from './tracing.js';

/** `store` with traced transactions (a Proxy, so stores written as classes keep their `this`). */
export function tracedStore(store: LatchkeyStore): LatchkeyStore {
  const transaction: LatchkeyStore['transaction'] = (fn) =>
    traceSpan('latchkey.store.transaction', {}, () => store.transaction(fn));
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'transaction') return transaction;
      return Reflect.get(target, property, receiver);
    },
  });
}
