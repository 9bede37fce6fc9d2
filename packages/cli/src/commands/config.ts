/**
 * `latchkey config set KEY VALUE`, `config show`: the settings kept in the config file (0600).
 * `config set token` takes no value on the command line (`ps` and shell history would keep it): it
 * reads the token from `--token-file F`, from stdin, or asks for it without echo on a terminal.
 */
import type { Command } from 'commander';
import { SETTING_KEYS, type Settings } from '../config.js';
import { createContext, type GlobalOptions } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { readTokenInput } from '../token-source.js';

/** Registers `config set` and `config show`. */
export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description('Keep the server, token, organization, project and environment in the config file');
  config
    .command('set')
    .description(
      `Set one of: ${SETTING_KEYS.join(', ')} (the token is read from stdin or --token-file, never given here)`,
    )
    .argument('<key>', SETTING_KEYS.join(' | '))
    .argument('[value]', 'the value (not for token)')
    .action(async (key: string, given: string | undefined, _options: unknown, command: Command) => {
      if (!(SETTING_KEYS as readonly string[]).includes(key)) {
        throw new CliError(`Unknown setting "${key}": one of ${SETTING_KEYS.join(', ')}.`, EXIT.usage);
      }
      if (key === 'token' && given !== undefined) {
        throw new CliError(
          'config set token takes no value on the command line (ps and your shell history would keep it): run `latchkey config set token` and type it, pipe it in, or give --token-file F. Nothing was saved.',
          EXIT.usage,
        );
      }
      if (key !== 'token' && given === undefined) {
        throw new CliError(`config set ${key} needs a value.`, EXIT.usage);
      }
      const options = command.optsWithGlobals<GlobalOptions>();
      const ctx = createContext(options);
      // With --token-file the context has read it already; otherwise stdin or the terminal gives it.
      const value =
        key === 'token' ? (options.tokenFile ? ctx.settings.token! : await readTokenInput()) : given!;
      const settings = ctx.config.settings();
      settings[key as keyof Settings] = value;
      ctx.config.saveSettings(settings);
      ctx.out.result({ [key]: key === 'token' ? '(set)' : value }, () =>
        ctx.out.line(`${key} saved in ${ctx.config.dir}/config.json`),
      );
    });
  config
    .command('show')
    .description('Print the settings in effect (the token masked)')
    .action((_options: unknown, command: Command) => {
      const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
      const shown = {
        ...ctx.settings,
        token: ctx.settings.token ? `${ctx.settings.token.slice(0, 6)}…` : undefined,
      };
      ctx.out.result(shown, () =>
        ctx.out.table(
          ['setting', 'value'],
          SETTING_KEYS.map((key) => [key, shown[key] ?? '(not set)']),
        ),
      );
    });
}
