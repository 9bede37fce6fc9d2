/**
 * `latchkey push FILE --propose TITLE`: the changes `push` would send, each with its `if_version`,
 * signed by this device as a change request instead of a push. Nothing is written until the
 * request is approved and applied (`latchkey changes`); the file and the versions this machine
 * last saw are left as they are, so its next push or pull still sees these edits as its own.
 */
import type { KeyObject } from 'node:crypto';
import { signChangeRequest, type UnsignedPush } from '@latchkey/core/client';
import type { Base } from '../base-versions.js';
import { type ChangeRequest, changeRequestsPath } from '../change-request-view.js';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { HttpClient } from '../http-client.js';

/** The option checks of `--propose`, `--description` and `--bypass-reason`. */
export function checkProposeOptions(options: {
  propose?: string;
  description?: string;
  bypassReason?: string;
  rebase?: boolean;
  forceOverwrite?: boolean;
}): void {
  if (options.propose !== undefined) {
    const other = [
      options.rebase && '--rebase',
      options.forceOverwrite && '--force-overwrite',
      options.bypassReason !== undefined && '--bypass-reason',
    ].filter(Boolean);
    if (other.length > 0) throw new CliError(`--propose excludes ${other.join(' and ')}.`, EXIT.usage);
    if (options.propose.trim() === '' || options.propose.length > 200) {
      throw new CliError('--propose needs a title of 1 to 200 characters.', EXIT.usage);
    }
  } else if (options.description !== undefined) {
    throw new CliError('--description goes with --propose.', EXIT.usage);
  }
  if (options.description !== undefined && options.description.length > 4_000) {
    throw new CliError('--description may hold at most 4,000 characters.', EXIT.usage);
  }
  if (
    options.bypassReason !== undefined &&
    (options.bypassReason.trim() === '' || options.bypassReason.length > 500)
  ) {
    throw new CliError('--bypass-reason needs a reason of 1 to 500 characters.', EXIT.usage);
  }
}

/** What a proposal is made of: the changes against the base, and the device that signs them. */
export interface Proposal {
  client: HttpClient;
  where: { org: string; project: string; env: string };
  changes: UnsignedPush['changes'];
  base: Base | undefined;
  deviceId: string;
  key: KeyObject;
}

/** Sends the changes as a change request and prints its id. */
export async function propose(
  ctx: CommandContext,
  proposal: Proposal,
  text: { title: string; description: string },
): Promise<void> {
  const { client, where, changes } = proposal;
  // A request is applied strictly: every change names the version it was based on.
  if (!proposal.base) {
    throw new CliError(
      `A change request names the version of every key it changes: pull ${where.project}/${where.env} first.`,
      EXIT.conflict,
    );
  }
  const body = signChangeRequest(
    { device_id: proposal.deviceId, changes, title: text.title, description: text.description },
    { organization: where.org, project: where.project, environment: where.env },
    proposal.key,
  );
  const { change_request: created } = await client.json<{ change_request: ChangeRequest }>(
    'POST',
    changeRequestsPath(where),
    body,
  );
  ctx.out.result({ change_request: created }, () => {
    ctx.out.table(
      ['key', 'change', 'based on version'],
      created.changes.map((c) => [c.key, c.action, c.if_version]),
    );
    ctx.out.line(
      `Proposed ${created.id} in ${where.project}/${where.env}: ${created.required_approvals} approval(s) needed before it can be applied (until ${created.expires_at}).`,
    );
    ctx.out.line(`Nothing was written yet. Follow it with: latchkey changes show ${created.id}`);
  });
}
