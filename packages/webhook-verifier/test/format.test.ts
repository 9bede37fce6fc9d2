import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_PATTERN, TIMESTAMP_PATTERN } from '../src/constants.js';
import { parseSignature, parseTimestamp, toBase64Url, toHex } from '../src/format.js';

const hexChar = fc.constantFrom(...'0123456789abcdefABCDEFgxz é\u0130'.split(''));

describe('parseSignature', () => {
  it('accepts exactly the language of SIGNATURE_PATTERN and decodes it', () => {
    const candidates = fc.oneof(
      fc.string(),
      fc.array(hexChar, { minLength: 62, maxLength: 66 }).map((c) => `sha256=${c.join('')}`),
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `sha256=${Buffer.from(b).toString('hex')}`),
    );
    fc.assert(
      fc.property(candidates, (value) => {
        const out = new Uint8Array(32);
        const ok = parseSignature(value, out);
        expect(ok).toBe(SIGNATURE_PATTERN.test(value));
        if (ok) expect(Buffer.from(out).toString('hex')).toBe(value.slice(7));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseTimestamp', () => {
  it('accepts exactly the language of TIMESTAMP_PATTERN and returns its value', () => {
    const candidates = fc.oneof(
      fc.string(),
      fc.stringMatching(/^[0-9]{0,17}$/),
      fc.nat().map(String),
      fc.constantFrom(
        '0',
        '00',
        '01',
        '-1',
        '+1',
        '1e3',
        ' 1',
        '1 ',
        '١٢٣',
        '999999999999999',
        '1000000000000000',
      ),
    );
    fc.assert(
      fc.property(candidates, (value) => {
        const parsed = parseTimestamp(value);
        if (TIMESTAMP_PATTERN.test(value)) expect(parsed).toBe(Number(value));
        else expect(parsed).toBe(-1);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('encoders used where Buffer does not exist', () => {
  it('match Buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(toHex(bytes)).toBe(Buffer.from(bytes).toString('hex'));
        expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      }),
    );
  });
});
