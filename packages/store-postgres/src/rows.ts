/** Conversions between database rows and Latchkey's records. */

/** A timestamp column (a Date from either driver) as the ISO-8601 string the records use. */
export function iso(value: unknown): string {
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

/** A nullable timestamp column. */
export function isoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : iso(value);
}

/** A jsonb column: node-postgres parses it, PGlite may hand over the text. */
export function json<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** A bigint column: node-postgres returns a string, PGlite a number. */
export function int(value: unknown): number {
  return Number(value);
}

/** `'created'` when the insert wrote a row, `'exists'` when ON CONFLICT DO NOTHING skipped it. */
export function created(rowCount: number): 'created' | 'exists' {
  return rowCount > 0 ? 'created' : 'exists';
}
