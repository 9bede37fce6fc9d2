/**
 * `latchkey rollback KEY --to N`: not a write path of its own but a signed push. It reads the
 * versions from the head down to N with their values (the server records that read as
 * `secret_versions_read`), then pushes N's value with `if_version` = the head it read, so a push
 * made in between makes the server refuse it (exit 3) and nothing is written. The local file and
 * the versions recorded by `pull` are left alone: the next `push` of a file that still holds the
 * old value conflicts rather than undo the rollback; `pull` to take it.
 */

import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { readKey } from '../signing-device.js';
import { type KeyVersion, versionPage } from './key-versions.js';
import { signedSender } from './push.js';

/** Makes version `to` of `key` its new head, or explains why not. */
export async function rollback(ctx: CommandContext, key: string, to: number): Promise<void> {
  const { url, client, org } = ctx.connect();
  const { project, env } = ctx.scope();
  const where = { url: url.href, org, project, env };
  const device = ctx.config.state(url.href, org).device;
  if (!device) {
    throw new CliError(
      'This machine has no device for this server and organization: run `latchkey device enroll --name …` first.',
    );
  }
  const { head, target } = await readDownTo(ctx, where, key, to);
  if (target.deleted) {
    throw new CliError(
      `Version ${to} of ${key} is a delete (a tombstone): there is no value to restore. To delete the key, push a file without it.`,
    );
  }
  if (target.value === undefined) {
    throw new CliError(
      `Version ${to} of ${key} no longer keeps its value (the server keeps the values of the last versions only, core option secretVersionsKept).`,
    );
  }
  if (head.version === to) {
    throw new CliError(`Version ${to} is already the current version of ${key}: nothing to roll back.`);
  }
  const send = signedSender(client, where, device.id, readKey(device.keyFile), { conflictMode: 'strict' });
  let result: Awaited<ReturnType<typeof send>>;
  try {
    result = await send([{ key, value: target.value, if_version: head.version }]);
  } catch (error) {
    if (error instanceof CliError && error.exitCode === EXIT.conflict) {
      ctx.out.warn(
        `${key} changed on the server after version ${head.version} was read: nothing was written. Run history and rollback again.`,
      );
    }
    throw error;
  }
  const version = result.versions[0]?.version;
  ctx.out.result({ key, from: head.version, to, version, event_id: result.event_id }, () =>
    ctx.out.line(
      `Rolled ${key} back to the value of version ${to}: now version ${version} of ${project}/${env} (event ${result.event_id}). Pull to update your file.`,
    ),
  );
}

/** The head and version `to`, reading the versions newest first with their values down to `to`. */
async function readDownTo(
  ctx: CommandContext,
  where: { org: string; project: string; env: string },
  key: string,
  to: number,
): Promise<{ head: KeyVersion; target: KeyVersion }> {
  const { client } = ctx.connect();
  const [head] = (await versionPage(client, where, key, { limit: '1' })).versions;
  if (!head) throw new CliError(`${key} has no versions in ${where.project}/${where.env}.`);
  if (to > head.version) {
    throw new CliError(`${key} has no version ${to}: its current version is ${head.version}.`);
  }
  // Only the versions from the head down to `to` are read with their values (the read is recorded).
  let cursor: string | null = null;
  // The head read with the values is the one the push is based on.
  let current: KeyVersion | undefined;
  for (;;) {
    const query: Record<string, string> = {
      include_values: 'true',
      limit: String(Math.min(100, head.version - to + 1)),
    };
    if (cursor) query['cursor'] = cursor;
    const page = await versionPage(client, where, key, query);
    current ??= page.versions[0];
    const target = page.versions.find((v) => v.version === to);
    if (target && current) return { head: current, target };
    if (!page.next_cursor || page.versions.some((v) => v.version < to)) {
      throw new CliError(`${key} has no version ${to}.`, EXIT.failure);
    }
    cursor = page.next_cursor;
  }
}
