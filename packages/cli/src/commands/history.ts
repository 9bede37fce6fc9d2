/**
 * `latchkey history KEY` prints a key's versions, newest first (tombstones included), as the
 * server keeps them; `latchkey rollback KEY --to N` makes version N's value the key's head again
 * with a normal signed push (`rollback.ts`).
 */
import type { Command } from 'commander';
import { type CommandContext, createContext, type GlobalOptions } from '../context.js';
import { positiveInteger, versionPage } from './key-versions.js';
import { rollback } from './rollback.js';

/** Registers `history KEY` and `rollback KEY --to N`. */
export function registerHistory(program: Command): void {
  program
    .command('history')
    .description('List the versions of a key, newest first (values are not shown)')
    .argument('<key>', 'the secret key')
    .option('--limit <n>', 'how many versions, from 1 to 100', '20')
    .action(async (key: string, options: { limit: string }, command: Command) => {
      const limit = positiveInteger('--limit', options.limit, 100);
      const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
      await history(ctx, key, limit);
    });

  program
    .command('rollback')
    .description(
      'Push the value of an earlier version of a key as its new version, signed by this device (exit 3 if the key moved meanwhile)',
    )
    .argument('<key>', 'the secret key')
    .requiredOption('--to <version>', 'the version whose value to restore')
    .action(async (key: string, options: { to: string }, command: Command) => {
      const to = positiveInteger('--to', options.to);
      const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
      await rollback(ctx, key, to);
    });
}

async function history(ctx: CommandContext, key: string, limit: number): Promise<void> {
  const { client, org } = ctx.connect();
  const { project, env } = ctx.scope();
  const page = await versionPage(client, { org, project, env }, key, { limit: String(limit) });
  ctx.out.result(page, () => {
    if (page.versions.length === 0) {
      ctx.out.line(`${key} has no versions in ${project}/${env}.`);
      return;
    }
    ctx.out.table(
      ['version', 'change', 'when', 'by', 'device', 'event'],
      page.versions.map((v) => [
        v.version,
        v.deleted ? 'deleted' : 'set',
        v.occurred_at,
        v.actor ? v.actor.id : '(before history)',
        v.device_id ?? '',
        v.event_id ?? '',
      ]),
    );
    if (page.next_cursor) ctx.out.line(`Older versions exist: run again with a larger --limit (up to 100).`);
  });
}
