import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryCopyLines, CopyFormatError } from './copy-binary.js';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** A binary COPY stream of one-column rows, as PostgreSQL writes it. */
function copyStream(
  values: (string | null)[],
  options: { extension?: Buffer; columns?: number; trailer?: boolean } = {},
) {
  const extension = options.extension ?? Buffer.alloc(0);
  const header = Buffer.alloc(8);
  header.writeInt32BE(extension.length, 4);
  const rows = values.map((value) => {
    const body = value === null ? Buffer.alloc(0) : Buffer.from(value, 'utf8');
    const frame = Buffer.alloc(6);
    frame.writeInt16BE(options.columns ?? 1, 0);
    frame.writeInt32BE(value === null ? -1 : body.length, 2);
    return Buffer.concat([frame, body]);
  });
  const trailer = options.trailer === false ? Buffer.alloc(0) : Buffer.from([0xff, 0xff]);
  return Buffer.concat([SIGNATURE, header, extension, ...rows, trailer]);
}

async function* pieces(data: Buffer, size: number) {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

async function decode(source: AsyncIterable<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return { text: Buffer.concat(chunks).toString('utf8'), chunks };
}

const VALUES = ['{"seq":1,"a":"x\\\\y \\"q\\""}', '{"seq":2,"é":"ü €"}', '', '{"seq":4}'];
const EXPECTED = `${VALUES.join('\n')}\n`;

describe('binaryCopyLines', () => {
  it('turns each value into a line, whatever the chunk boundaries (backslashes and UTF-8 kept byte for byte)', async () => {
    const data = copyStream(VALUES);
    for (const size of [1, 2, 3, 5, 7, 19, 20, 64, data.length]) {
      const { text, chunks } = await decode(binaryCopyLines(pieces(data, size)));
      expect(text, `chunks of ${size}`).toBe(EXPECTED);
      // Every chunk holds whole lines.
      for (const chunk of chunks) expect(chunk.at(-1)).toBe(0x0a);
    }
  });

  it('decodes any rows split at any points (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ maxLength: 300 }).map((v) => v.replace(/\n/g, ' ')),
          { maxLength: 30 },
        ),
        fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 20 }),
        async (values, sizes) => {
          const data = copyStream(values);
          async function* split() {
            let at = 0;
            for (let i = 0; at < data.length; i++) {
              const size = sizes[i % sizes.length]!;
              yield data.subarray(at, at + size);
              at += size;
            }
          }
          const expected = values.length === 0 ? '' : `${values.join('\n')}\n`;
          expect((await decode(binaryCopyLines(split()))).text).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('skips a header extension', async () => {
    const data = copyStream(VALUES, { extension: Buffer.from('ext!') });
    expect((await decode(binaryCopyLines(pieces(data, 3)))).text).toBe(EXPECTED);
  });

  it('yields nothing for an empty result', async () => {
    expect((await decode(binaryCopyLines(pieces(copyStream([]), 4)))).text).toBe('');
  });

  it.each([
    ['a text-format stream', Buffer.from('{"seq":1,"type":"push_applied"}\n'), /not a binary COPY stream/],
    ['two columns', copyStream(['a'], { columns: 2 }), /2 columns/],
    ['a NULL value', copyStream([null]), /NULL/],
    ['a stream cut before its trailer', copyStream(VALUES, { trailer: false }), /ended early/],
    ['a stream cut mid-row', copyStream(VALUES).subarray(0, 40), /ended early/],
    ['data after the trailer', Buffer.concat([copyStream(VALUES), Buffer.from([0, 1])]), /after the end/],
  ])('refuses %s', async (_, data, message) => {
    await expect(decode(binaryCopyLines(pieces(data, 8)))).rejects.toThrow(CopyFormatError);
    await expect(decode(binaryCopyLines(pieces(data, 8)))).rejects.toThrow(message);
  });
});
