/**
 * `latchkey changes approve|reject|cancel|apply ID`. `approve` signs with this machine's device
 * when the environment's policy requires signed approvals: over the digest of the request's
 * changes with their values, read for it (which the server records). `apply` writes the request's
 * changes strictly; a key that moved since it was proposed refuses it with the keys and versions,
 * exit 3, as a push's conflict does, and the request is then `conflicted`.
 */
import type { schemas } from '@latchkey/core';
import { changeRequestDigest, signApproval } from '@latchkey/core/client';
import type { Command } from 'commander';
import { type ChangeRequest, changeRequestPath, requestId } from '../change-request-view.js';
import { explainConflict } from '../conflict-report.js';
import { type CommandContext, createContext, type GlobalOptions, seg } from '../context.js';
import { CliError } from '../exit-codes.js';
import { ApiError } from '../http-client.js';
import { readKey } from '../signing-device.js';

/** An environment as the API lists it, its approval policy included. */
type Environment = schemas.Infer<typeof schemas.EnvironmentResponse>;

type Action = (ctx: CommandContext, id: string, options: Record<string, string | undefined>) => Promise<void>;

/** Registers the actions on `changes`. */
export function registerChangeActions(changes: Command): void {
  const on = (action: Action) => async (id: string, options: Record<string, string>, command: Command) =>
    action(createContext(command.optsWithGlobals<GlobalOptions>()), requestId(id), options);
  changes
    .command('approve')
    .description('Approve a change request (signed by this device when the policy asks for it)')
    .argument('<id>', 'the change request (chr_…)')
    .option('--comment <text>', 'a note kept with the approval')
    .action(on(approve));
  changes
    .command('reject')
    .description('Reject a change request: it can no longer be applied')
    .argument('<id>', 'the change request (chr_…)')
    .requiredOption('--reason <text>', 'why, kept with the request')
    .action(on(reject));
  changes
    .command('cancel')
    .description('Cancel your own change request')
    .argument('<id>', 'the change request (chr_…)')
    .action(on(cancel));
  changes
    .command('apply')
    .description('Apply an approved change request (exit 3 if a key moved since it was proposed)')
    .argument('<id>', 'the change request (chr_…)')
    .action(on(apply));
}

/** Whether the environment's policy wants approvals signed by a device. */
async function signedApprovals(ctx: CommandContext): Promise<boolean> {
  const { client, org } = ctx.connect();
  const { project, env } = ctx.scope();
  const { environments } = await client.json<{ environments: Environment[] }>(
    'GET',
    `/organizations/${seg(org)}/projects/${seg(project)}/environments`,
  );
  return environments.find((e) => e.slug === env)?.approval_policy?.require_signed_approvals === true;
}

const approve: Action = async (ctx, id, options) => {
  const { url, client, org } = ctx.connect();
  const { project, env } = ctx.scope();
  const where = { org, project, env };
  const body: Record<string, unknown> =
    options['comment'] !== undefined ? { comment: options['comment'] } : {};
  if (await signedApprovals(ctx)) {
    const device = ctx.config.state(url.href, org).device;
    if (!device) {
      throw new CliError(
        'This environment wants approvals signed by a device: run `latchkey device enroll --name …` first.',
      );
    }
    // The signature covers the values that will be written, so they are read (and that is recorded).
    const { change_request: full } = await client.json<{ change_request: ChangeRequest }>(
      'GET',
      `${changeRequestPath(where, id)}?include_values=true`,
    );
    const digest = changeRequestDigest(
      { organization: org, project, environment: env },
      full.changes.map((c) => ({ ...c, value: c.value ?? null })),
    );
    Object.assign(body, signApproval(id, digest, device.id, readKey(device.keyFile)));
  }
  const { change_request: approved } = await client.json<{ change_request: ChangeRequest }>(
    'POST',
    changeRequestPath(where, id, 'approve'),
    body,
  );
  ctx.out.result({ change_request: approved }, () => {
    ctx.out.line(
      `Approved ${approved.id}${body['signature'] ? ' (signed by this device)' : ''}: ${approved.approvals.length} of ${approved.required_approvals} approval(s), now ${approved.status}.`,
    );
  });
};

const reject: Action = async (ctx, id, options) => {
  const request = await act(ctx, id, 'reject', { reason: options['reason'] });
  ctx.out.result({ change_request: request }, () => ctx.out.line(`Rejected ${request.id}.`));
};

const cancel: Action = async (ctx, id) => {
  const request = await act(ctx, id, 'cancel', {});
  ctx.out.result({ change_request: request }, () => ctx.out.line(`Cancelled ${request.id}.`));
};

/** Posts `action` on the request and answers the request as it now is. */
async function act(ctx: CommandContext, id: string, action: string, body: object): Promise<ChangeRequest> {
  const { client, org } = ctx.connect();
  const { project, env } = ctx.scope();
  const answer = await client.json<{ change_request: ChangeRequest }>(
    'POST',
    changeRequestPath({ org, project, env }, id, action),
    body,
  );
  return answer.change_request;
}

const apply: Action = async (ctx, id) => {
  const { client, org } = ctx.connect();
  const { project, env } = ctx.scope();
  let result: { versions: { key: string; version: number }[]; event_id: string };
  try {
    result = await client.json('POST', changeRequestPath({ org, project, env }, id, 'apply'), {});
  } catch (error) {
    if (error instanceof ApiError && error.code === 'version_conflict') {
      explainConflict(
        ctx,
        error,
        `Nothing was written and ${id} is now conflicted: pull again and propose the changes anew.`,
      );
    }
    throw error;
  }
  ctx.out.result(result, () => {
    ctx.out.table(
      ['key', 'version'],
      result.versions.map((v) => [v.key, v.version]),
    );
    ctx.out.line(`Applied ${id} to ${project}/${env} (event ${result.event_id}).`);
  });
};
