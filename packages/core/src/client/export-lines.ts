/**
 * The lines of an export, read as it arrives: a browser's `fetch` body and a Node file stream
 * alike, without holding the whole export and without Node's `Buffer`.
 */

/** An export as text, bytes, or chunks of either (a file read stream, a `fetch` body). */
export type ExportSource =
  | string
  | Uint8Array
  | AsyncIterable<string | Uint8Array>
  | Iterable<string | Uint8Array>;

/** The lines of `source`, one at a time, without holding the whole export. */
export async function* linesOf(source: ExportSource): AsyncGenerator<string> {
  const chunks = typeof source === 'string' || source instanceof Uint8Array ? [source] : source;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let rest = '';
  for await (const chunk of chunks as AsyncIterable<string | Uint8Array>) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline = rest.indexOf('\n');
    while (newline !== -1) {
      yield rest.slice(0, newline);
      rest = rest.slice(newline + 1);
      newline = rest.indexOf('\n');
    }
  }
  rest += decoder.decode();
  if (rest !== '') yield rest;
}
