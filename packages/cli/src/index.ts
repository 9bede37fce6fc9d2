/**
 * `@latchkey/cli`: the `latchkey` command line (see its README). Importing it runs nothing;
 * `main(argv)` runs the CLI and resolves with its exit code.
 */

export { CliError, EXIT, type ExitCode } from './exit-codes.js';
export { main } from './main.js';
export { formatSecrets, parseSecrets, type SecretsFormat } from './secrets-file.js';
