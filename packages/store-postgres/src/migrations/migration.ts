/** A numbered, forward-only schema change, bundled into the code as SQL strings. */
import type { Tables } from '../schema-name.js';

export interface Migration {
  /** 1, 2, 3…: applied in order, each once. */
  id: number;
  name: string;
  /** The statements, one per string, written against the store's tables. */
  statements: (tables: Tables) => string[];
}

/** Migration `id`, named `name`: its statements, written against the store's tables. */
export function migration(id: number, name: string, statements: Migration['statements']): Migration {
  return { id, name, statements };
}
