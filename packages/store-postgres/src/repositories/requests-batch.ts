/**
 * Lookups that arrive at the same moment, answered together: the first one of a turn of the event
 * loop waits for that turn to end (`setImmediate`), then every lookup made meanwhile is sent as one
 * batch. A lone lookup goes by itself (its own statement, planned for one row). A batch that fails
 * fails each of its lookups with that error.
 */

/** Looks up `keys`, alone or in the batch of its moment. */
export function batchedLookups<K, R>(
  single: (keys: K) => Promise<R>,
  batch: (keys: readonly K[]) => Promise<R[]>,
): (keys: K) => Promise<R> {
  let waiting: { keys: K; resolve(row: R): void; reject(error: unknown): void }[] = [];
  const flush = () => {
    const taken = waiting;
    waiting = [];
    if (taken.length === 1) {
      const [only] = taken;
      single(only!.keys).then(only!.resolve, only!.reject);
      return;
    }
    batch(taken.map((w) => w.keys)).then(
      (rows) => {
        taken.forEach((w, i) => {
          w.resolve(rows[i]!);
        });
      },
      (error: unknown) => {
        for (const w of taken) w.reject(error);
      },
    );
  };
  return (keys) =>
    new Promise<R>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ keys, resolve, reject });
    });
}
