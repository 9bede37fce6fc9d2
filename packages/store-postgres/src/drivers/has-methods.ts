/**
 * Tells a driver's engine object (a `pg.Pool`, a PGlite instance) from its options, by the methods
 * it has: the drivers import their engines lazily, so `instanceof` is not available before.
 */
export function hasMethods<T>(value: unknown, ...names: (keyof T & string)[]): value is T {
  return (
    typeof value === 'object' &&
    value !== null &&
    names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function')
  );
}
