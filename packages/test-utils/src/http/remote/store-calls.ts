/**
 * The server's side of the store over IPC: runs each call of the harness on its own store, and holds
 * a transaction the harness opened until the harness commits or rolls it back. A transaction of the
 * harness is one of the store's, so it holds what one holds (PGlite's one connection) until it ends.
 */
import type { LatchkeyStore, StoreTransaction } from '@latchkey/core/store';

/** A transaction the harness holds open. */
interface OpenTransaction {
  tx: StoreTransaction;
  finish: (commit: boolean) => void;
  done: Promise<unknown>;
}

/** The method names of an object, its prototypes' included (a repository may be a class). */
function methodNames(value: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = value; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (name !== 'constructor' && typeof (value as Record<string, unknown>)[name] === 'function')
        names.add(name);
    }
  }
  return [...names];
}

/** Calls on one store, by the harness. */
export function storeCalls(store: LatchkeyStore) {
  const open = new Map<number, OpenTransaction>();
  let next = 0;
  const repositories = Object.fromEntries(
    Object.entries(store)
      .filter(([, value]) => typeof value === 'object' && value !== null)
      .map(([name, value]) => [name, methodNames(value as object)]),
  );

  function repositoryOf(tx: number | null, name: string): Record<string, (...args: unknown[]) => unknown> {
    const source = tx === null ? store : open.get(tx)?.tx;
    if (!source) throw new Error(`no open transaction ${tx}`);
    const repository = (source as unknown as Record<string, unknown>)[name];
    if (typeof repository !== 'object' || repository === null) throw new Error(`no repository ${name}`);
    return repository as Record<string, (...args: unknown[]) => unknown>;
  }

  return {
    repositories,
    call(tx: number | null, name: string, method: string, args: unknown[]): Promise<unknown> {
      const repository = repositoryOf(tx, name);
      if (typeof repository[method] !== 'function') throw new Error(`no method ${name}.${method}`);
      return Promise.resolve(repository[method]!(...args));
    },
    /** Opens a transaction and answers its id once the store runs it. */
    begin(): Promise<number> {
      const id = ++next;
      return new Promise<number>((resolve, reject) => {
        const entry = {} as OpenTransaction;
        entry.done = store.transaction(
          (tx) =>
            new Promise<void>((commit, rollback) => {
              entry.tx = tx;
              entry.finish = (ok) => (ok ? commit() : rollback(new Error('rolled back by the harness')));
              open.set(id, entry);
              resolve(id);
            }),
        );
        entry.done.then(
          () => open.delete(id),
          (error: unknown) => {
            open.delete(id);
            reject(error);
          },
        );
      });
    },
    /** Ends a transaction; resolves when the store has committed it (or rejects with why not). */
    async end(id: number, commit: boolean): Promise<void> {
      const transaction = open.get(id);
      if (!transaction) throw new Error(`no open transaction ${id}`);
      transaction.finish(commit);
      if (commit) await transaction.done;
      else await transaction.done.catch(() => undefined);
    },
  };
}
