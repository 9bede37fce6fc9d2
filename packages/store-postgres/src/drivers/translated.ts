/** Runs a call against the engine and throws its failure as the store reports it (see `translate`). */
import { translate } from '../failures.js';

/** `run()`'s result, or its error translated: 503 for "not now", a scrubbed query error otherwise. */
export async function translated<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw translate(error);
  }
}
