/**
 * Runs `latchkey` with `argv` and resolves with its exit code: 0 done, 1 failure, 2 usage,
 * 3 versions not settled, 4 refused, 5 verification failed (see `exit-codes.ts`). Every error is one
 * line on stderr, starting with `latchkey:`.
 */
import { CommanderError } from 'commander';
import { CliError, EXIT } from './exit-codes.js';
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
    if (error instanceof CliError) {
      process.stderr.write(`latchkey: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`latchkey: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.failure;
  }
}
