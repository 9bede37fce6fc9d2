/** `latchkey whoami`: who the token speaks for (`GET /me`). */
import type { Command } from 'commander';
import { createContext, type GlobalOptions } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { checkServerUrl, createHttpClient } from '../http-client.js';
import { TOKEN_SOURCES } from '../token-source.js';

interface Me {
  user: string;
  role: string;
  organization: { slug: string; name: string };
}

/** Registers `whoami`. */
export function registerWhoami(program: Command): void {
  program
    .command('whoami')
    .description('Show the user, organization and role of the token')
    .action(async (_options: unknown, command: Command) => {
      const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
      if (!ctx.settings.url || !ctx.settings.token) {
        throw new CliError(
          `whoami needs a server (--url or LATCHKEY_URL) and a token: ${TOKEN_SOURCES}.`,
          EXIT.usage,
        );
      }
      const client = createHttpClient(checkServerUrl(ctx.settings.url), ctx.settings.token, ctx.limits);
      const me = await client.json<Me>('GET', '/me');
      ctx.out.result(me, () =>
        ctx.out.line(
          `${me.user} (${me.role}) in ${me.organization.slug}${me.organization.name ? ` — ${me.organization.name}` : ''}`,
        ),
      );
    });
}
