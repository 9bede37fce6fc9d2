/**
 * Runs `latchkey` with `argv` and resolves with its exit code: 0 done, 1 failure, 2 usage,
 * 3 versions not settled, 4 refused, 5 verification failed (see `exit-codes.ts`). Every error is one
 * line on stderr, starting with `latchkey:`, an unexpected one too (its stack only with
 * `LATCHKEY_DEBUG=1`).
 */
import { CommanderError } from 'commander';
import { CliError, EXIT } from './exit-codes.js';
import { toTerminal } from './output.js';
import { createProgram } from './program.js';

export async function main(argv: string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; commander has already printed what was wrong.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    // Messages carry what the server said: printed through toTerminal, like everything else.
    if (error instanceof CliError) {
      process.stderr.write(`latchkey: ${toTerminal(error.message)}\n`);
      return error.exitCode;
    }
    // Still one line: a stack trace says nothing to the person at the terminal, and may repeat
    // what a hostile server sent. LATCHKEY_DEBUG=1 adds it, for a bug report.
    const message = toTerminal(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    process.stderr.write(`latchkey: unexpected error: ${message}\n`);
    if (process.env['LATCHKEY_DEBUG'] === '1' && error instanceof Error && error.stack) {
      process.stderr.write(`${error.stack.split('\n').slice(1).map(toTerminal).join('\n')}\n`);
    }
    return EXIT.failure;
  }
}
