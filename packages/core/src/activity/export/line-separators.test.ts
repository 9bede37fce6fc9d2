import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeLineSeparators } from './line-separators.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const RAW = /[\u2028\u2029\u0085]/;

/** JSON values whose strings are full of the three separators and their UTF-8 neighbours. */
const awkward = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\u2028', '\u2029', '\u0085', '\u00A9', '\u20AC', '\u2027', '\u202A', '\\', '"', 'a'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
});
const values = fc.dictionary(awkward, fc.oneof(awkward, fc.array(awkward, { maxLength: 3 })), { maxKeys: 4 });

describe('escapeLineSeparators', () => {
  it('escapes U+2028, U+2029 and U+0085 in text and in UTF-8 bytes alike, and nothing else', () => {
    const line = '{"a":"x\u2028y\u2029z\u0085","b":"\u00A9\u20AC\u2027"}\n';
    const escaped = '{"a":"x\\u2028y\\u2029z\\u0085","b":"\u00A9\u20AC\u2027"}\n';
    expect(escapeLineSeparators(line)).toBe(escaped);
    expect(decoder.decode(escapeLineSeparators(encoder.encode(line)) as Uint8Array)).toBe(escaped);
    const plain = encoder.encode('{"a":"\u00A9\u20AC"}\n');
    expect(escapeLineSeparators(plain)).toBe(plain);
  });

  it('keeps every line the same JSON value, with none of the three left raw (property)', () => {
    fc.assert(
      fc.property(fc.array(values, { minLength: 1, maxLength: 5 }), (records) => {
        const text = records.map((r) => `${JSON.stringify(r)}\n`).join('');
        const fromText = escapeLineSeparators(text) as string;
        const fromBytes = decoder.decode(escapeLineSeparators(encoder.encode(text)) as Uint8Array);
        expect(fromBytes).toBe(fromText);
        expect(RAW.test(fromText)).toBe(false);
        expect(
          fromText
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line)),
        ).toEqual(records);
      }),
      { numRuns: 300 },
    );
  });
});
