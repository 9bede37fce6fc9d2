import { describe, expect, it } from 'vitest';
import { formatTlogProof } from './tlog-proof.js';

const NOTE =
  'example.com/log\n2\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n\u2014 example.com/log c2ln\n';

describe('formatTlogProof', () => {
  it('writes the c2sp.org/tlog-proof@v1 lines in the spec’s order', () => {
    const hash = new Uint8Array(32).fill(255);
    expect(
      formatTlogProof({ index: 0, hashes: [hash, 'AQ=='], checkpoint: NOTE, extra: new Uint8Array([1, 2]) }),
    ).toBe(
      `c2sp.org/tlog-proof@v1\nextra AQI=\nindex 0\n${Buffer.from(hash).toString('base64')}\nAQ==\n\n${NOTE}`,
    );
    // No extra line without extra data, and no hash lines for a tree of one.
    expect(formatTlogProof({ index: 12, hashes: [], checkpoint: NOTE })).toBe(
      `c2sp.org/tlog-proof@v1\nindex 12\n\n${NOTE}`,
    );
  });

  it('refuses an index that is not a non-negative integer, and a checkpoint that is not a whole note', () => {
    for (const index of [-1, 1.5, Number.NaN]) {
      expect(() => formatTlogProof({ index, hashes: [], checkpoint: NOTE })).toThrow(RangeError);
    }
    expect(() => formatTlogProof({ index: 0, hashes: [], checkpoint: NOTE.trimEnd() })).toThrow(RangeError);
    expect(() => formatTlogProof({ index: 0, hashes: [], checkpoint: 'one line\n' })).toThrow(RangeError);
  });
});
