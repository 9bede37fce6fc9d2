/** The order the stores list names and ids in. */

/**
 * Compares two strings by UTF-16 code units, as SQL's `COLLATE "C"` compares the ASCII names and
 * ids the stores hold, so the memory store lists in the same order as the SQL one.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
