import { describe, expect, it } from 'vitest';
import { CHUNK_CHARACTERS, chunked } from './text-chunks.js';

async function* lines(count: number, length: number) {
  for (let i = 0; i < count; i++) yield `${String(i).padStart(length - 1, '0')}\n`;
}

const collect = async (source: AsyncIterable<string>) => {
  const chunks: string[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return chunks;
};

describe('chunked', () => {
  it('joins lines into chunks of about 64 kB, never splitting a line, losing or adding nothing', async () => {
    const chunks = await collect(chunked(lines(10_000, 100)));
    expect(chunks.join('')).toBe((await collect(lines(10_000, 100))).join(''));
    // 656 lines of 100 characters first reach 64 KiB: a chunk each, the rest in the last.
    expect(chunks.length).toBe(Math.ceil(10_000 / Math.ceil(CHUNK_CHARACTERS / 100)));
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.length).toBeGreaterThanOrEqual(CHUNK_CHARACTERS);
      expect(chunk.length).toBeLessThan(CHUNK_CHARACTERS + 100);
      expect(chunk.endsWith('\n')).toBe(true);
    }
  });

  it('yields nothing for no lines, and one short chunk for a few', async () => {
    expect(await collect(chunked(lines(0, 10)))).toEqual([]);
    expect(await collect(chunked(lines(3, 4), 1_000))).toEqual(['000\n001\n002\n']);
  });
});
