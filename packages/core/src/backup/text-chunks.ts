/**
 * Joining a stream's many small lines into chunks of about 64 kB. A response body sent line by line
 * costs a write each; one built whole (an environment of 10,000 keys, as the backup built it) holds
 * its lines and the string they were joined into until it is sent, several megabytes of Node's heap
 * for one response.
 */

/** About how much text one chunk holds (its lines are never split). */
export const CHUNK_CHARACTERS = 64 * 1024;

/** `lines` joined into chunks of at least `size` characters (the last one may be shorter). */
export async function* chunked(
  lines: AsyncIterable<string>,
  size = CHUNK_CHARACTERS,
): AsyncGenerator<string> {
  let chunk = '';
  for await (const text of lines) {
    chunk += text;
    if (chunk.length >= size) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
