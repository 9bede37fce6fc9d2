import { afterEach, describe, expect, it, vi } from 'vitest';
import { LineSplitter } from './line-splitter.js';
import { RESTORE_LIMIT_DEFAULTS } from './restore/limits.js';

const tooLong = (bytes: number) => new Error(`too long: ${bytes}`);

/** Counts the characters every search for a newline looks at, while it is installed. */
function countNewlineSearches(): { scanned: number } {
  const indexOf = String.prototype.indexOf;
  const counter = { scanned: 0 };
  vi.spyOn(String.prototype, 'indexOf').mockImplementation(function (
    this: string,
    search: string,
    position?: number,
  ) {
    const at = indexOf.call(this, search, position);
    if (search === '\n') {
      const from = Math.min(Math.max(position ?? 0, 0), this.length);
      counter.scanned += (at === -1 ? this.length : at + 1) - from;
    }
    return at;
  });
  return counter;
}

const all = (splitter: LineSplitter, pieces: string[]) =>
  pieces.flatMap((piece) => [...splitter.push(piece)]);

describe('LineSplitter', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives the lines whole wherever the pieces are cut', () => {
    const text = 'one\ntwo é\n\nthree 😀 four\nfive\n';
    for (let size = 1; size <= text.length; size++) {
      const pieces: string[] = [];
      for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
      const splitter = new LineSplitter(100, tooLong);
      expect(all(splitter, pieces)).toEqual(['one', 'two é', '', 'three 😀 four', 'five']);
      expect(splitter.holding).toBe(false);
    }
    const cut = new LineSplitter(100, tooLong);
    expect(all(cut, ['a\nb', 'c'])).toEqual(['a']);
    expect(cut.holding).toBe(true);
  });

  it('searches each character once, however many pieces a line spans', () => {
    const counter = countNewlineSearches();
    const splitter = new LineSplitter(10_000_000, tooLong);
    const piece = 'x'.repeat(1_000);
    const lines = all(splitter, [...Array.from({ length: 2_000 }, () => piece), '\nend\n']);
    vi.restoreAllMocks();
    expect(lines.map((l) => l.length)).toEqual([2_000_000, 3]);
    // Re-searching the held-over text at every piece would look at about 2,000,000,000.
    expect(counter.scanned).toBeLessThanOrEqual(2_000_005);
  });

  it('refuses a line past the limit in UTF-8 bytes as soon as the held-over text passes it', () => {
    const splitter = new LineSplitter(10, tooLong);
    expect(all(splitter, ['ééééé\n'])).toEqual(['ééééé']);
    expect(() => all(splitter, ['éééééé\n'])).toThrow('too long: 12');
    const held = new LineSplitter(10, tooLong);
    expect(all(held, ['abcdef'])).toEqual([]);
    // Refused on the piece that passes the limit, before any newline arrives.
    expect(() => all(held, ['ghijk'])).toThrow('too long: 11');
  });

  it('reads lines up to the default limit (16 MiB) and refuses one byte more', () => {
    const max = RESTORE_LIMIT_DEFAULTS.maxLineBytes;
    expect(max).toBe(16 * 1_048_576);
    const fits = new LineSplitter(max, tooLong);
    const piece = 'x'.repeat(1_048_576);
    expect(all(fits, [...Array.from({ length: 16 }, () => piece), '\n'])[0]).toHaveLength(max);
    const over = new LineSplitter(max, tooLong);
    expect(() => all(over, [...Array.from({ length: 16 }, () => piece), 'x\n'])).toThrow(
      `too long: ${max + 1}`,
    );
  });
});
