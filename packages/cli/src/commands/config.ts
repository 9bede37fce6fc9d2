/** `latchkey config set KEY VALUE`, `config show`: the settings kept in the config file (0600). */
import type { Command } from 'commander';
import { SETTING_KEYS, type Settings } from '../config.js';
import { createContext, type GlobalOptions } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';

export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description('Keep the server, token, organization, project and environment in the config file');
  config
    .command('set')
    .description(`Set one of: ${SETTING_KEYS.join(', ')}`)
    .argument('<key>', SETTING_KEYS.join(' | '))
    .argument('<value>')
    .action((key: string, value: string, _options: unknown, command: Command) => {
      if (!(SETTING_KEYS as readonly string[]).includes(key)) {
        throw new CliError(`Unknown setting "${key}": one of ${SETTING_KEYS.join(', ')}.`, EXIT.usage);
      }
      const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
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
