import { describe, expect, it } from 'vitest';
import { inlineParameters } from './inline.js';

// node-postgres's escapeLiteral, in its rules: quotes doubled, and E'' with doubled backslashes.
function escapeLiteral(value: string): string {
  const quoted = `'${value.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;
  return value.includes('\\') ? ` E${quoted}` : quoted;
}

describe('inlineParameters', () => {
  it('writes strings, numbers, NULL and arrays as literals, $10 not mistaken for $1', () => {
    const params = ['a', 2, null, ['x', "it's"], 5, 6, 7, 8, 9, 'ten'];
    expect(
      inlineParameters('SELECT $1, $2, $3, ANY($4::text[]), $10 WHERE n = $2', params, escapeLiteral),
    ).toBe("SELECT 'a', 2, NULL, ANY(ARRAY['x','it''s']::text[]), 'ten' WHERE n = 2");
  });

  it('leaves quotes and backslashes to the driver quoting', () => {
    expect(inlineParameters('x = $1', ["a'); DROP TABLE t; --\\"], escapeLiteral)).toBe(
      "x =  E'a''); DROP TABLE t; --\\\\'",
    );
  });

  it('writes an empty array for the statement to cast', () => {
    expect(inlineParameters('ANY($1::text[])', [[]], escapeLiteral)).toBe('ANY(ARRAY[]::text[])');
  });

  it.each([
    ['a missing parameter', 'x = $2', ['a']],
    ['$0', 'x = $0', ['a']],
    ['a non-finite number', 'x = $1', [Number.NaN]],
    ['an object', 'x = $1', [{ a: 1 }]],
    ['a boolean', 'x = $1', [true]],
  ])('refuses %s', (_, text, params) => {
    expect(() => inlineParameters(text, params, escapeLiteral)).toThrow();
  });
});
