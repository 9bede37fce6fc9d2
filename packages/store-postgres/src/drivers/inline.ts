/**
 * Writes a statement's `$n` parameters into its text as quoted literals, for the one statement that
 * cannot take parameters: `COPY (SELECT …) TO STDOUT`. Strings are quoted by the driver's own
 * `escapeLiteral`; numbers must be finite; arrays become `ARRAY[…]` of quoted strings (the statement
 * casts them, as in `ANY($2::text[])`); nothing else is accepted.
 */
export function inlineParameters(
  text: string,
  params: readonly unknown[],
  quote: (value: string) => string,
): string {
  const literal = (value: unknown): string => {
    if (value === null) return 'NULL';
    if (typeof value === 'string') return quote(value);
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(',')}]`;
    throw new TypeError(`cannot inline a parameter of type ${typeof value}`);
  };
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index < 0 || index >= params.length) throw new RangeError(`no parameter $${n}`);
    return literal(params[index]);
  });
}
