/**
 * What commands print: readable tables and lines for people, or one JSON document with `--json`
 * for scripts. Results go to stdout; progress and warnings to stderr, so a pipe gets data only.
 * Everything printed for people passes through {@link toTerminal}: names and messages come from
 * the server (or from files), and must not drive the terminal or fake a line.
 */
import { stripVTControlCharacters } from 'node:util';

/** Tabs and line breaks (including NEL and the Unicode line and paragraph separators). */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
/** C0, DEL and C1 controls, and the bidirectional controls that reorder what a line shows. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` made safe to print on a terminal: escape sequences (CSI, OSC such as a title change, …)
 * removed whole, tabs and line breaks turned into one space, every other control character
 * (C0 with BEL and ESC, DEL, C1, bidirectional controls) removed. Printable Unicode is kept.
 */
export function toTerminal(text: string): string {
  return stripVTControlCharacters(text).replace(BREAKS, ' ').replace(CONTROLS, '');
}

export interface Output {
  json: boolean;
  /** A result: printed as JSON with `--json`, else through `human`. */
  result(value: unknown, human: () => void): void;
  /** A line for people (stdout), skipped with `--json`. */
  line(text: string): void;
  /** A table for people. */
  table(columns: string[], rows: Cell[][]): void;
  /** A table on stderr, printed with `--json` too (what went wrong, beside the JSON result). */
  warnTable(columns: string[], rows: Cell[][]): void;
  /** Progress on stderr: rewritten in place on a terminal, a line now and then otherwise. */
  progress(text: string): void;
  /** Ends a progress line. */
  done(): void;
  warn(text: string): void;
}

/** What a table cell may hold; null and undefined print empty. */
export type Cell = string | number | null | undefined;

/** Aligned columns, every cell through {@link toTerminal}, so no cell can add a row or a colour. */
export function formatTable(columns: string[], rows: Cell[][]): string {
  const cells = [columns, ...rows].map((row) =>
    row.map((cell) => (cell === null || cell === undefined ? '' : toTerminal(String(cell)))),
  );
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const render = (row: string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [render(cells[0]!), render(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(render)].join(
    '\n',
  );
}

export function createOutput(json: boolean, stdout = process.stdout, stderr = process.stderr): Output {
  let lastProgress = 0;
  let lastPhase = '';
  let open = false;
  return {
    json,
    result(value, human) {
      if (json) stdout.write(`${JSON.stringify(value, null, 2)}\n`);
      else human();
    },
    line(text) {
      if (!json) stdout.write(`${toTerminal(text)}\n`);
    },
    table(columns, rows) {
      if (!json) stdout.write(`${formatTable(columns, rows)}\n`);
    },
    warnTable(columns, rows) {
      stderr.write(`${formatTable(columns, rows)}\n`);
    },
    progress(raw) {
      const text = toTerminal(raw);
      if (stderr.isTTY) {
        stderr.write(`\r\x1b[2K${text}`);
        open = true;
      } else if (Date.now() - lastProgress >= 1000 || !text.startsWith(`${lastPhase}:`)) {
        // Into a log, at most a line a second, but the first line of each phase ("checking:", …) at once.
        lastProgress = Date.now();
        lastPhase = text.split(':', 1)[0]!;
        stderr.write(`${text}\n`);
      }
    },
    done() {
      if (open) stderr.write('\n');
      open = false;
    },
    warn(text) {
      stderr.write(`${toTerminal(text)}\n`);
    },
  };
}

/** A byte count in megabytes, for progress lines. */
export const formatMb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
