/**
 * A store in the harness's process whose every call runs on the spawned server's store: what the
 * suite's tests and its harness-side helpers (a delivery engine of a test, a second core of the
 * bounds tests) read and write the server's data through. A transaction is one of the server's
 * store, opened by `begin` and held until `fn` ends: it commits when `fn` resolves, and rolls back
 * when `fn` throws, as the port says.
 */
import type { LatchkeyStore, StoreTransaction } from '@latchkey/core/store';
import type { Ask } from './channel.js';
import type { RemoteHello } from './protocol.js';

/** The repositories of the server's store, called in transaction `tx` (null: outside any). */
function repositoriesOf(ask: Ask, hello: RemoteHello, tx: number | null): StoreTransaction {
  return Object.fromEntries(
    Object.entries(hello.repositories).map(([repository, methods]) => [
      repository,
      Object.fromEntries(
        methods.map((method) => [
          method,
          (...args: unknown[]) => ask({ op: 'call', tx, repository, method, args }),
        ]),
      ),
    ]),
  ) as unknown as StoreTransaction;
}

/** The spawned server's store, as a store of this process. Closing it is the server's to do. */
export function remoteStore(ask: Ask, hello: RemoteHello): LatchkeyStore {
  return {
    ...repositoriesOf(ask, hello, null),
    serialTransactions: hello.serialTransactions,
    async transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      const tx = await ask<number>({ op: 'begin' });
      let result: T;
      try {
        result = await fn(repositoriesOf(ask, hello, tx));
      } catch (error) {
        await ask({ op: 'rollback', tx });
        throw error;
      }
      await ask({ op: 'commit', tx });
      return result;
    },
    status: () => ask({ op: 'status' }),
  };
}
