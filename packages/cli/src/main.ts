/**
 * Runs `latchkey` with `argv` and resolves with its exit code: 0 done, 1 failure, 2 usage,
 * 3 versions not settled, 4 refused, 5 verification failed (see `exit-codes.ts`). Every error is one
 * line on stderr, starting with `latchkey:`.
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
    const trace = ((error as Error).stack ?? String(error)).split('\n').map(toTerminal).join('\n');
    process.stderr.write(`latchkey: unexpected error: ${trace}\n`);
    return EXIT.failure;
  }
}
