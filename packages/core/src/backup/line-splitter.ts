/**
 * Lines of text that arrives in pieces, in time linear in its length. Each piece is searched for
 * newlines once; what a piece leaves over is held as a list of pieces and joined only when its line
 * ends, never searched again. (Joining the held-over text with each piece and searching the whole
 * again costs time quadratic in the length of a line that spans many pieces.) A line longer than
 * the limit is refused as soon as the held-over text passes it, so memory stays within one line and
 * one piece.
 */

/** Splits pieces of text into lines (without their `\n`). */
export class LineSplitter {
  private held: string[] = [];
  private heldBytes = 0;

  /**
   * @param maxLineBytes the longest line, in UTF-8 bytes
   * @param tooLong the error to throw for a longer line, given the bytes seen of it so far
   */
  constructor(
    private readonly maxLineBytes: number,
    private readonly tooLong: (bytes: number) => Error,
  ) {}

  /** True while part of a line is held, waiting for its newline. */
  get holding(): boolean {
    return this.held.length > 0;
  }

  /** The lines `piece` ends, in order; the rest of it is held for the pieces that follow. */
  *push(piece: string): Generator<string> {
    let start = 0;
    for (let end = piece.indexOf('\n'); end !== -1; end = piece.indexOf('\n', start)) {
      let line = piece.slice(start, end);
      if (this.held.length > 0) {
        this.hold(line);
        line = this.held.join('');
        this.held = [];
        this.heldBytes = 0;
      } else {
        this.check(line);
      }
      start = end + 1;
      yield line;
    }
    if (start < piece.length) this.hold(start === 0 ? piece : piece.slice(start));
  }

  private hold(text: string): void {
    this.heldBytes += Buffer.byteLength(text, 'utf8');
    if (this.heldBytes > this.maxLineBytes) throw this.tooLong(this.heldBytes);
    this.held.push(text);
  }

  private check(line: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8: most lines need no counting.
    if (line.length * 3 <= this.maxLineBytes) return;
    const bytes = Buffer.byteLength(line, 'utf8');
    if (bytes > this.maxLineBytes) throw this.tooLong(bytes);
  }
}
