/**
 * What commands print: readable tables and lines for people, or one JSON document with `--json`
 * for scripts. Results go to stdout; progress and warnings to stderr, so a pipe gets data only.
 */
export interface Output {
  json: boolean;
  /** A result: printed as JSON with `--json`, else through `human`. */
  result(value: unknown, human: () => void): void;
  /** A line for people (stdout), skipped with `--json`. */
  line(text: string): void;
  /** A table for people. */
  table(columns: string[], rows: (string | number | null | undefined)[][]): void;
  /** Progress on stderr: rewritten in place on a terminal, a line now and then otherwise. */
  progress(text: string): void;
  /** Ends a progress line. */
  done(): void;
  warn(text: string): void;
}

export function formatTable(columns: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = [
    columns,
    ...rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell)))),
  ];
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
      if (!json) stdout.write(`${text}\n`);
    },
    table(columns, rows) {
      if (!json) stdout.write(`${formatTable(columns, rows)}\n`);
    },
    progress(text) {
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
      stderr.write(`${text}\n`);
    },
  };
}

/** A byte count in megabytes, for progress lines. */
export const formatMb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
