/**
 * Questions to the person at the keyboard, on stderr, answered on stdin one line each (a pipe
 * works too, so scripts and tests can answer). No answer (stdin closed) is "no": nothing is ever
 * decided for the user.
 */
import { createInterface, type Interface } from 'node:readline';
import { toTerminal } from './output.js';

export interface Prompter {
  /** Asks a yes/no question; resolves true only for an answer starting with y. */
  confirm(question: string): Promise<boolean>;
  close(): void;
}

export function createPrompter(
  input: NodeJS.ReadableStream = process.stdin,
  output = process.stderr,
): Prompter {
  let rl: Interface | null = null;
  const lines: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let closed = false;
  const open = () => {
    if (rl) return;
    rl = createInterface({ input, terminal: false });
    rl.on('line', (line) => {
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    });
    rl.on('close', () => {
      closed = true;
      for (const next of waiting.splice(0)) next(null);
    });
  };
  return {
    async confirm(question) {
      open();
      output.write(`${toTerminal(question)} [y/N] `);
      const line =
        lines.shift() ??
        (closed ? null : await new Promise<string | null>((resolve) => waiting.push(resolve)));
      if (line === null) output.write('(no answer: no)\n');
      else if (!process.stdin.isTTY) output.write(`${toTerminal(line)}\n`);
      return line !== null && /^\s*y/i.test(line);
    },
    close() {
      rl?.close();
    },
  };
}
