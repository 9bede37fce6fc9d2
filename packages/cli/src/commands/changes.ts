/**
 * `latchkey changes list|show|approve|reject|cancel|apply`: the change requests of an environment
 * under an approval policy. `list` and `show` read; the actions are in `change-actions.ts`.
 * Requests are proposed with `latchkey push FILE --propose TITLE`.
 */
import type { Command } from 'commander';
import {
  type ChangeRequest,
  type ChangeRequestPage,
  changeRequestPath,
  changeRequestsPath,
  printRequest,
  printRequestTable,
  requestId,
} from '../change-request-view.js';
import { type CommandContext, createContext, type GlobalOptions } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { registerChangeActions } from './change-actions.js';
import { currentVersions } from './current-versions.js';
import { positiveInteger } from './key-versions.js';

const STATUSES = ['open', 'approved', 'applied', 'rejected', 'cancelled', 'expired', 'conflicted'];

/** Registers `changes` and its commands. */
export function registerChanges(program: Command): void {
  const changes = program
    .command('changes')
    .description('List, review, approve and apply the change requests of an environment');

  changes
    .command('list')
    .description('List the change requests of --project/--env, newest first')
    .option('--status <status>', `only those in one state: ${STATUSES.join(', ')}`)
    .option('--limit <n>', 'how many, from 1 to 100', '20')
    .action(async (options: { status?: string; limit: string }, command: Command) => {
      if (options.status !== undefined && !STATUSES.includes(options.status)) {
        throw new CliError(`--status must be one of ${STATUSES.join(', ')}.`, EXIT.usage);
      }
      const limit = positiveInteger('--limit', options.limit, 100);
      await list(createContext(command.optsWithGlobals<GlobalOptions>()), options.status, limit);
    });

  changes
    .command('show')
    .description('Show a change request: its keys with their versions, and its approvals')
    .argument('<id>', 'the change request (chr_…)')
    .option('--values', 'also show the proposed values (needs secrets:read; recorded)')
    .action(async (id: string, options: { values?: boolean }, command: Command) => {
      await show(
        createContext(command.optsWithGlobals<GlobalOptions>()),
        requestId(id),
        options.values === true,
      );
    });

  registerChangeActions(changes);
}

async function list(ctx: CommandContext, status: string | undefined, limit: number): Promise<void> {
  const { client, org } = ctx.connect();
  const { project, env } = ctx.scope();
  const query = new URLSearchParams({ limit: String(limit), ...(status ? { status } : {}) });
  const page = await client.json<ChangeRequestPage>(
    'GET',
    `${changeRequestsPath({ org, project, env })}?${query}`,
  );
  ctx.out.result(page, () => {
    if (page.change_requests.length === 0) {
      ctx.out.line(`No${status ? ` ${status}` : ''} change requests in ${project}/${env}.`);
      return;
    }
    printRequestTable(ctx.out, page.change_requests);
    if (page.next_cursor) ctx.out.line('Older requests exist: run again with a larger --limit (up to 100).');
  });
}

async function show(ctx: CommandContext, id: string, values: boolean): Promise<void> {
  const { client, org } = ctx.connect();
  const { project, env } = ctx.scope();
  const where = { org, project, env };
  const { change_request: request } = await client.json<{ change_request: ChangeRequest }>(
    'GET',
    `${changeRequestPath(where, id)}${values ? '?include_values=true' : ''}`,
  );
  // Versions now matter only while the request may still be applied.
  const live = request.status === 'open' || request.status === 'approved';
  const current = live
    ? await currentVersions(
        client,
        where,
        request.changes.map((c) => c.key),
      )
    : undefined;
  ctx.out.result(
    { change_request: request, ...(current ? { current_versions: Object.fromEntries(current) } : {}) },
    () => printRequest(ctx.out, request, current),
  );
}
