/**
 * The `latchkey` command tree. Global options may stand before or after the command words; every
 * command has `--help`.
 */
import { Command } from 'commander';
import { registerActivity } from './commands/activity.js';
import { registerBackup } from './commands/backup.js';
import { registerChanges } from './commands/changes.js';
import { registerConfig } from './commands/config.js';
import { registerDevice } from './commands/device.js';
import { registerHistory } from './commands/history.js';
import { registerKeyring } from './commands/keyring.js';
import { registerLogin } from './commands/login.js';
import { registerPull } from './commands/pull.js';
import { registerPush } from './commands/push.js';
import { registerRelease } from './commands/release.js';
import { registerWhoami } from './commands/whoami.js';

export const VERSION = '0.1.0';

/**
 * Adds the global options to a command, so they are accepted after its words too. `--token` is
 * accepted as the contract says, with a warning (see `token-source.ts`); `--token-file` is the way
 * that keeps the token out of `ps` and the shell's history.
 */
function withGlobals(command: Command): Command {
  return command
    .option('--url <url>', 'the Latchkey server (env LATCHKEY_URL)')
    .option('--token-file <file>', 'read the API token from a file, - for stdin (or env LATCHKEY_TOKEN)')
    .option(
      '--token <token>',
      'the API token (visible in ps and shell history: prefer --token-file or LATCHKEY_TOKEN)',
    )
    .option('--org <slug>', 'organization (env LATCHKEY_ORG)')
    .option('--project <slug>', 'project (env LATCHKEY_PROJECT)')
    .option('--env <slug>', 'environment (env LATCHKEY_ENV)')
    .option('--json', 'print results as JSON, for scripts')
    .option('--timeout <seconds>', 'most time one request may take (env LATCHKEY_TIMEOUT; default 60)')
    .option(
      '--max-response-mb <MiB>',
      'most bytes one answer may hold (env LATCHKEY_MAX_RESPONSE_MB; default 64)',
    );
}

export function createProgram(): Command {
  const program = withGlobals(new Command('latchkey'))
    .description('Signed pushes and pulls of secrets, devices and the activity log of a Latchkey server.')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    // Before the commands are added, so each inherits it: errors come back to main(), which owns the exit code.
    .exitOverride();
  registerWhoami(program);
  registerLogin(program);
  registerConfig(program);
  registerDevice(program);
  registerPull(program);
  registerPush(program);
  registerChanges(program);
  registerHistory(program);
  registerActivity(program);
  registerBackup(program);
  registerRelease(program);
  registerKeyring(program);
  // Each leaf command takes the global options as well, wherever they are written.
  const visit = (command: Command) => {
    for (const sub of command.commands) {
      if (sub.commands.length === 0) withGlobals(sub);
      visit(sub);
    }
  };
  visit(program);
  return program;
}
