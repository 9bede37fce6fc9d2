/**
 * What the `activity_exported` event records of an export (how many events, the first and last
 * `seq`), kept as it streams: from pages of events, or from NDJSON chunks (whole lines, each ending
 * in `\n`, as text or UTF-8 bytes) by counting newlines and parsing only the first and last line.
 */
const NEWLINE = 0x0a;
const decoder = new TextDecoder();

type Seen = number | string | Uint8Array | undefined;

export class ExportTally {
  count = 0;
  #first: Seen;
  #last: Seen;

  /** A page of events, oldest first. */
  addPage(page: readonly { seq: number }[]): void {
    if (page.length === 0) return;
    this.count += page.length;
    this.#first ??= page[0]!.seq;
    this.#last = page[page.length - 1]!.seq;
  }

  /** A chunk of NDJSON lines. */
  addLines(chunk: string | Uint8Array): void {
    if (chunk.length === 0) return;
    const end = chunk.length - 1;
    if (typeof chunk === 'string') {
      for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) this.count++;
      this.#first ??= chunk.slice(0, chunk.indexOf('\n'));
      this.#last = chunk.slice(chunk.lastIndexOf('\n', end - 1) + 1, end);
    } else {
      for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) this.count++;
      this.#first ??= chunk.slice(0, chunk.indexOf(NEWLINE));
      // Copied (`slice`), so the chunk itself is not kept.
      this.#last = chunk.slice(chunk.lastIndexOf(NEWLINE, end - 1) + 1, end);
    }
  }

  /** The first event's `seq`, or null when there was none. */
  get firstSeq(): number | null {
    return seqOf(this.#first);
  }

  /** The last event's `seq`, or null when there was none. */
  get lastSeq(): number | null {
    return seqOf(this.#last);
  }
}

function seqOf(seen: Seen): number | null {
  if (seen === undefined) return null;
  if (typeof seen === 'number') return seen;
  const line = typeof seen === 'string' ? seen : decoder.decode(seen);
  return (JSON.parse(line) as { seq: number }).seq;
}
