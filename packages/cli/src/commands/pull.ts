/**
 * `latchkey pull`: an environment's secrets into a `.env` or JSON file (mode 0600), and the versions
 * seen remembered for this server and organization, so a later `push` sends only what changed, each
 * change with the version it was based on.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { writeBase } from '../base-versions.js';
import { createContext, type GlobalOptions, seg } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { formatSecrets, type SecretsFormat } from '../secrets-file.js';

/** A secret as the server lists it. */
export interface ServerSecret {
  key: string;
  value: string;
  version: number;
  updated_at: string;
}

/** The API path of an environment. */
export const environmentPath = (org: string, project: string, env: string) =>
  `/organizations/${seg(org)}/projects/${seg(project)}/environments/${seg(env)}`;

/** Registers `pull`. */
export function registerPull(program: Command): void {
  program
    .command('pull')
    .description("Write an environment's secrets to a file and remember their versions")
    .option('--format <format>', 'env or json', 'env')
    .option('--out <file>', 'the file to write (default .env, or secrets.json with --format json)')
    .action(async (options: { format: string; out?: string }, command: Command) => {
      if (options.format !== 'env' && options.format !== 'json') {
        throw new CliError(`--format must be env or json, not "${options.format}".`, EXIT.usage);
      }
      const format = options.format as SecretsFormat;
      const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
      const { url, client, org } = ctx.connect();
      const { project, env } = ctx.scope();
      const { secrets } = await client.json<{ secrets: ServerSecret[] }>(
        'GET',
        `${environmentPath(org, project, env)}/secrets`,
      );
      const out = resolve(options.out ?? (format === 'json' ? 'secrets.json' : '.env'));
      writeFileSync(out, formatSecrets(Object.fromEntries(secrets.map((s) => [s.key, s.value])), format), {
        mode: 0o600,
      });
      writeBase(
        ctx.config,
        url.href,
        org,
        project,
        env,
        Object.fromEntries(secrets.map((s) => [s.key, { version: s.version, value: s.value }])),
      );
      ctx.out.result({ file: out, secrets: secrets.map(({ key, version }) => ({ key, version })) }, () =>
        ctx.out.line(
          `Pulled ${secrets.length} secret(s) of ${project}/${env} into ${out} (versions recorded).`,
        ),
      );
    });
}
