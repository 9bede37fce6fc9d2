/**
 * Decodes PostgreSQL's binary COPY format (`COPY … TO STDOUT (FORMAT binary)`) of a one-column text
 * result into newline-terminated lines: each value's UTF-8 bytes copied as they arrived, nothing
 * decoded into strings, so a large result streams at close to the speed of a file copy. Binary
 * rather than text format because the text format escapes backslashes, which JSON is full of.
 */

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Signature, flags (int32), header extension length (int32). */
const HEADER = SIGNATURE.length + 8;
const NEWLINE = 0x0a;

/** A COPY stream that is not one text column in binary format. */
export class CopyFormatError extends Error {
  override name = 'CopyFormatError';
}

/**
 * The values of a binary COPY stream of single-column rows, each followed by `\n`, in chunks of whole
 * lines (one chunk per chunk read, empty ones skipped). The values must not contain a newline
 * (JSON text never does). Throws {@link CopyFormatError} on anything else.
 */
export async function* binaryCopyLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  // Bytes of a header or row that straddles two chunks; a chunk is otherwise read in place.
  let pending: Buffer = Buffer.alloc(0);
  let headerRead = false;
  let ended = false;
  for await (const chunk of chunks) {
    if (ended) throw new CopyFormatError('data after the end of the COPY stream');
    let data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!headerRead) {
      data = pending.length > 0 ? Buffer.concat([pending, data]) : data;
      pending = Buffer.alloc(0);
      if (data.length < HEADER || data.length < HEADER + data.readInt32BE(SIGNATURE.length + 4)) {
        if (data.length >= SIGNATURE.length && !data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) {
          throw new CopyFormatError('not a binary COPY stream');
        }
        pending = data;
        continue;
      }
      if (!data.subarray(0, SIGNATURE.length).equals(SIGNATURE))
        throw new CopyFormatError('not a binary COPY stream');
      data = data.subarray(HEADER + data.readInt32BE(SIGNATURE.length + 4));
      headerRead = true;
    }
    // At most the input's size: each row's 6 framing bytes become one newline.
    const out = Buffer.allocUnsafe(pending.length + data.length);
    let written = 0;
    let at = 0;
    // Complete a row that straddles chunks from the head of this one, taking only the bytes it needs.
    while (pending.length > 0 && !ended) {
      const need = rowBytesNeeded(pending);
      if (pending.length >= need) {
        const row = decodeRows(pending, 0, out, written);
        written = row.written;
        ended = row.ended;
        pending = Buffer.alloc(0);
      } else if (at < data.length) {
        const take = Math.min(need - pending.length, data.length - at);
        pending = Buffer.concat([pending, data.subarray(at, at + take)]);
        at += take;
      } else {
        break;
      }
    }
    if (!ended && pending.length === 0) {
      const rows = decodeRows(data, at, out, written);
      written = rows.written;
      ended = rows.ended;
      at = rows.at;
      // Kept as a copy: the remainder of a large chunk must not pin the whole chunk in memory.
      if (!ended && at < data.length) {
        pending = Buffer.from(data.subarray(at));
        at = data.length;
      }
    }
    if (ended && at < data.length) throw new CopyFormatError('data after the end of the COPY stream');
    if (written > 0) yield out.subarray(0, written);
  }
  if (!headerRead || !ended || pending.length > 0) throw new CopyFormatError('the COPY stream ended early');
}

/** How many bytes the row starting `partial` has in all (at least what is needed to know). */
function rowBytesNeeded(partial: Buffer): number {
  if (partial.length < 2) return 2;
  if (partial.readInt16BE(0) === -1) return 2;
  if (partial.length < 6) return 6;
  return 6 + Math.max(0, partial.readInt32BE(2));
}

/** Decodes whole rows of `data` from `at` into `out` from `written`; stops at a partial row or the trailer. */
function decodeRows(data: Buffer, at: number, out: Buffer, written: number) {
  let ended = false;
  while (at + 2 <= data.length) {
    const fields = data.readInt16BE(at);
    if (fields === -1) {
      ended = true;
      at += 2;
      break;
    }
    if (fields !== 1) throw new CopyFormatError(`a row of ${fields} columns, not 1`);
    if (at + 6 > data.length) break;
    const length = data.readInt32BE(at + 2);
    if (length < 0) throw new CopyFormatError('a NULL value');
    if (at + 6 + length > data.length) break;
    data.copy(out, written, at + 6, at + 6 + length);
    written += length;
    out[written++] = NEWLINE;
    at += 6 + length;
  }
  return { at, written, ended };
}
