/**
 * `latchkey push FILE`: the keys of FILE that changed since `pull`, signed with this machine's
 * device key, each with the version it was based on as `if_version` (a new key: 0; a key gone from
 * the file: a delete). A conflict prints which keys moved and exits 3, so CI tells it from an
 * outage; with `--rebase` it shows them three ways and pushes again only what the user confirms.
 */
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { signPush, type UnsignedPush } from '@latchkey/core/client';
import type { Command } from 'commander';
import { advanceBase, type Base, readBase } from '../base-versions.js';
import { writePrivateFile } from '../config.js';
import { type Conflict, explainConflict } from '../conflict-report.js';
import { type CommandContext, createContext, type GlobalOptions } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { ApiError, type HttpClient } from '../http-client.js';
import { createPrompter } from '../prompt.js';
import { recordOf, writeRecord } from '../pull-record.js';
import { detectFormat, parseSecrets } from '../secrets-file.js';
import { rewriteSecrets } from '../secrets-rewrite.js';
import { environmentPath, readServerSecrets } from '../server-secrets.js';
import { conflictModeOf, signingDevice } from '../signing-device.js';
import { SESSION_VARIABLE } from '../workload-session.js';
import { checkProposeOptions, propose } from './propose.js';
import { planRebase } from './rebase.js';

type Change = UnsignedPush['changes'][number];
/** What the server answers an applied push. */
export type PushResult = { versions: { key: string; version: number }[]; event_id: string };

/** What to send: the file against the base (none: every key, without versions). */
export function changesOf(values: Record<string, string>, base: Base | undefined): Change[] {
  const changes: Change[] = [];
  for (const [key, value] of Object.entries(values).sort(([a], [b]) => a.localeCompare(b))) {
    const seen = base?.[key];
    if (seen && seen.value === value) continue;
    changes.push(base ? { key, value, if_version: seen?.version ?? 0 } : { key, value });
  }
  for (const [key, seen] of Object.entries(base ?? {})) {
    if (!(key in values)) changes.push({ key, delete: true, if_version: seen.version });
  }
  return changes;
}

/** How a push is sent: its conflict mode, and whether it overwrites whatever the server holds. */
export interface PushOptions {
  /** lenient or strict; the action fills it in (see `conflictModeOf`). */
  conflictMode: string;
  forceOverwrite?: boolean;
  rebase?: boolean;
  /** Under an approval policy: why this push goes without review (a role in the policy's bypass_roles). */
  bypassReason?: string;
  /** Propose the changes as a change request with this title instead of pushing them. */
  propose?: string;
  /** The change request's description. */
  description?: string;
}

/** Registers `push FILE`. */
export function registerPush(program: Command): void {
  program
    .command('push')
    .description('Push the keys of FILE that changed since pull, signed by this device')
    .argument('<file>', 'a .env or JSON secrets file')
    .option(
      '--conflict-mode <mode>',
      'lenient, or strict: every change must carry the version it was based on (default lenient; strict with a session)',
    )
    .option('--session-file <file>', `push as the workload of this session (env ${SESSION_VARIABLE})`)
    .option(
      '--force-overwrite',
      'overwrite whatever the server holds (owners and admins; recorded as push_force_overwrite)',
    )
    .option('--rebase', 'on a conflict, show base, yours and theirs, and push again only what you confirm')
    .option('--propose <title>', 'propose the changes for review as a change request (prints its id)')
    .option('--description <text>', 'with --propose: what the change request is for')
    .option('--bypass-reason <reason>', 'push past the approval policy, if your role may (recorded)')
    .action(async (file: string, options: PushOptions, command: Command) => {
      checkProposeOptions(options);
      if (options.rebase && options.forceOverwrite) {
        throw new CliError('--rebase and --force-overwrite exclude each other.', EXIT.usage);
      }
      const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
      options.conflictMode = conflictModeOf(options.conflictMode, ctx);
      await push(ctx, file, options);
    });
}

/** The environment a push goes to, on which server and organization. */
export type Where = { url: string; org: string; project: string; env: string };

/** The file being pushed: its path, its text (for its format) and the values read from it (or taken into it). */
interface LocalFile {
  file: string;
  text: string;
  values: Record<string, string>;
}

async function push(ctx: CommandContext, file: string, options: PushOptions): Promise<void> {
  const { url, client, org } = ctx.connect({ workload: true });
  const { project, env } = ctx.scope();
  const where = { url: url.href, org, project, env };
  const text = readText(file);
  const local = { file, text, values: parseSecrets(text, file) };
  const device = signingDevice(ctx, url.href, org);
  const base = readBase(ctx.config, url.href, org, project, env);
  let changes = changesOf(local.values, base);
  if (changes.length === 0) {
    recordFile(ctx, where, local);
    ctx.out.result({ versions: [], event_id: null }, () =>
      ctx.out.line(`Nothing changed since the last pull of ${project}/${env}.`),
    );
    return;
  }
  if (options.propose !== undefined) {
    await propose(
      ctx,
      { client, where, changes, base, deviceId: device.id, key: device.key },
      {
        title: options.propose,
        description: options.description ?? '',
      },
    );
    return;
  }
  const send = signedSender(client, where, device.id, device.key, options);
  let result: PushResult;
  try {
    result = await send(changes);
  } catch (error) {
    changes = await rebaseOnConflict(ctx, error, { client, where, changes, base, local, options });
    if (changes.length === 0) {
      recordFile(ctx, where, local);
      ctx.out.result({ versions: [], event_id: null }, () =>
        ctx.out.line('Nothing left to push: the server’s values were kept.'),
      );
      return;
    }
    result = await send(changes);
  }
  recordFile(ctx, where, local);
  reportPushed(ctx, where, base, changes, result);
}

/** What the file holds now is what this push left in it: the next pull compares the file with it. */
function recordFile(ctx: CommandContext, where: Where, local: LocalFile): void {
  writeRecord(ctx.config, { ...where, file: resolve(local.file) }, recordOf(local.values));
}

/** Sends a batch of changes as one push signed with the device key. */
export function signedSender(
  client: HttpClient,
  where: Where,
  deviceId: string,
  key: KeyObject,
  options: PushOptions,
) {
  return (batch: Change[]) =>
    client.json<PushResult>(
      'POST',
      `${environmentPath(where.org, where.project, where.env)}/push`,
      signPush(
        {
          device_id: deviceId,
          changes: batch,
          conflict_mode: options.conflictMode as 'lenient' | 'strict',
          ...(options.forceOverwrite ? { force_overwrite: true } : {}),
          ...(options.bypassReason !== undefined ? { bypass_reason: options.bypassReason } : {}),
        },
        { organization: where.org, project: where.project, environment: where.env },
        key,
      ),
    );
}

/**
 * After a refused push: explains the conflict, and with `--rebase` on a version conflict asks key by
 * key and returns what is left to push; otherwise rethrows the error.
 */
async function rebaseOnConflict(
  ctx: CommandContext,
  error: unknown,
  attempt: {
    client: HttpClient;
    where: Where;
    changes: Change[];
    base: Base | undefined;
    local: LocalFile;
    options: PushOptions;
  },
): Promise<Change[]> {
  if (!(error instanceof ApiError)) throw error;
  explainConflict(ctx, error);
  const conflicts = error.body['conflicts'] as Conflict[] | undefined;
  if (!attempt.options.rebase || error.code !== 'version_conflict' || !conflicts?.length) throw error;
  const plan = await rebase(ctx, attempt.client, attempt.where, attempt.changes, conflicts, attempt.base);
  // What the user took from the server goes into the file and the base: it is settled.
  if (Object.keys(plan.taken).length > 0) {
    const local = attempt.local;
    const next = { ...local.values };
    for (const [k, v] of Object.entries(plan.taken)) {
      if (v === null) delete next[k];
      else next[k] = v;
    }
    local.text = rewriteSecrets(local.text, next, detectFormat(local.text));
    writePrivateFile(local.file, local.text);
    local.values = next;
  }
  return plan.changes;
}

/** Records the pushed versions as this machine's base and prints what changed. */
function reportPushed(
  ctx: CommandContext,
  where: Where,
  base: Base | undefined,
  changes: Change[],
  result: PushResult,
): void {
  const version = new Map(result.versions.map((v) => [v.key, v.version]));
  advanceBase(
    ctx.config,
    where,
    changes.map((c) => ({ ...c, version: version.get(c.key) })),
  );
  ctx.out.result(result, () => {
    ctx.out.table(
      ['key', 'change', 'version'],
      changes.map((c) => [
        c.key,
        c.delete ? 'deleted' : base?.[c.key] ? 'updated' : 'added',
        version.get(c.key),
      ]),
    );
    ctx.out.line(
      `Pushed ${changes.length} change(s) to ${where.project}/${where.env} (event ${result.event_id}).`,
    );
  });
}

async function rebase(
  ctx: CommandContext,
  client: HttpClient,
  where: Where,
  changes: Change[],
  conflicts: Conflict[],
  base: Base | undefined,
) {
  const secrets = await readServerSecrets(client, where.org, where.project, where.env);
  const prompter = createPrompter();
  try {
    const plan = await planRebase(changes, conflicts, secrets, base, ctx.out, prompter);
    // The keys taken from the server are now what this machine has seen of them.
    const now = new Map(secrets.map((s) => [s.key, s]));
    advanceBase(
      ctx.config,
      where,
      Object.keys(plan.taken).map((k) =>
        now.has(k)
          ? { key: k, value: now.get(k)!.value, version: now.get(k)!.version }
          : { key: k, delete: true as const },
      ),
    );
    return plan;
  } finally {
    prompter.close();
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}
