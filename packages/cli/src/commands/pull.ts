/**
 * `latchkey pull`: an environment's secrets into a `.env` or JSON file (mode 0600, written through a
 * temporary file renamed over it), the versions seen remembered for this server and organization,
 * so a later `push` sends only what changed, and the keyed hashes of what was written, so the next
 * pull never destroys a local edit: over a file edited since (a key changed, added or removed), it
 * writes nothing and exits 3 naming the keys; `--force` overwrites, `--merge` merges three-way.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type Base, readBase, writeBase } from '../base-versions.js';
import { writePrivateFile } from '../config.js';
import { type CommandContext, createContext, type GlobalOptions } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { localEdits, type MergeResult, mergePull } from '../pull-merge.js';
import { type PullRecord, type RecordPlace, readRecord, recordOf, writeRecord } from '../pull-record.js';
import { formatSecrets, parseSecrets, type SecretsFormat } from '../secrets-file.js';
import { rewriteSecrets } from '../secrets-rewrite.js';
import { readServerSecrets, type ServerSecret } from '../server-secrets.js';
import { SESSION_VARIABLE } from '../workload-session.js';

interface PullOptions {
  format: string;
  out?: string;
  merge?: boolean;
  force?: boolean;
}

/** Registers `pull`. */
export function registerPull(program: Command): void {
  program
    .command('pull')
    .description("Write an environment's secrets to a file and remember their versions")
    .option('--format <format>', 'env or json', 'env')
    .option('--out <file>', 'the file to write (default .env, or secrets.json with --format json)')
    .option('--merge', 'keep local edits, take the server’s other changes; keys changed on both sides exit 3')
    .option('--force', 'overwrite the file, local edits included')
    .option('--session-file <file>', `pull as the workload of this session (env ${SESSION_VARIABLE})`)
    .action(async (options: PullOptions, command: Command) => {
      if (options.format !== 'env' && options.format !== 'json') {
        throw new CliError(`--format must be env or json, not "${options.format}".`, EXIT.usage);
      }
      if (options.merge && options.force) {
        throw new CliError('--merge and --force exclude each other.', EXIT.usage);
      }
      await pull(createContext(command.optsWithGlobals<GlobalOptions>()), options);
    });
}

/** What a pull works on: where the record lives (the file included), the server's secrets, the file now. */
interface PullScene {
  place: RecordPlace;
  format: SecretsFormat;
  secrets: ServerSecret[];
  server: Record<string, string>;
  /** The file's text, or undefined when there is none. */
  text: string | undefined;
}

async function pull(ctx: CommandContext, options: PullOptions): Promise<void> {
  const format = options.format as SecretsFormat;
  const { url, client, org } = ctx.connect({ workload: true });
  const { project, env } = ctx.scope();
  // Checked whole before anything is read or written here.
  const secrets = await readServerSecrets(client, org, project, env);
  const file = resolve(options.out ?? (format === 'json' ? 'secrets.json' : '.env'));
  const scene: PullScene = {
    place: { url: url.href, org, project, env, file },
    format,
    secrets,
    server: Object.fromEntries(secrets.map((s) => [s.key, s.value])),
    text: readExisting(file),
  };
  if (scene.text === undefined || options.force) {
    writeAll(ctx, scene, formatSecrets(scene.server, format));
    return;
  }
  const local = readLocal(scene.text, file);
  const record = readRecord(ctx.config, scene.place);
  if (options.merge) {
    merge(ctx, scene, mergePull(local, scene.server, record));
    return;
  }
  refuseLocalEdits(ctx, scene, local, record);
  writeAll(ctx, scene, rewriteSecrets(scene.text, scene.server, format));
}

/** The file's text, or undefined when it does not exist. */
function readExisting(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new CliError(`Cannot read ${file}: ${code ?? (error as Error).message}`);
  }
}

function readLocal(text: string, file: string): Record<string, string> {
  try {
    return parseSecrets(text, file);
  } catch (error) {
    throw new CliError(
      `${(error as Error).message} Nothing was written: fix the file, or pull --force to replace it.`,
    );
  }
}

/** Exits 3, writing nothing, when the file holds local edits a pull would destroy. */
function refuseLocalEdits(
  ctx: CommandContext,
  scene: PullScene,
  local: Record<string, string>,
  record: PullRecord | undefined,
): void {
  const edits = localEdits(local, scene.server, record);
  if (edits.length === 0) return;
  ctx.out.warnTable(
    ['key', 'local change'],
    edits.map((e) => [e.key, e.change]),
  );
  const since = record ? 'since the last pull or push' : 'and no record of what was pulled into it';
  throw new CliError(
    `${scene.place.file} has local edits ${since} (${edits.length} key(s) above): nothing was written. ` +
      `Push them first (latchkey push ${scene.place.file}), or pull --merge to keep them and take the ` +
      "server's other changes, or pull --force to overwrite them.",
    EXIT.conflict,
  );
}

/** Writes the server's values whole: the file, the base (the server's versions) and a new record. */
function writeAll(ctx: CommandContext, scene: PullScene, text: string): void {
  const { place, secrets } = scene;
  writePrivateFile(place.file, text);
  writeBase(
    ctx.config,
    place.url,
    place.org,
    place.project,
    place.env,
    Object.fromEntries(secrets.map((s) => [s.key, { version: s.version, value: s.value }])),
  );
  writeRecord(ctx.config, place, recordOf(scene.server));
  ctx.out.result({ file: place.file, secrets: secrets.map(({ key, version }) => ({ key, version })) }, () =>
    ctx.out.line(
      `Pulled ${secrets.length} secret(s) of ${place.project}/${place.env} into ${place.file} (versions recorded).`,
    ),
  );
}

/**
 * Writes a merge: the file with the merged values, the base at the server's versions except for the
 * conflicting keys (their old base stays, so a push of them meets the server's change as a conflict
 * instead of overwriting it), and the merge's record. Conflicts exit 3 after the rest is written.
 */
function merge(ctx: CommandContext, scene: PullScene, result: MergeResult): void {
  const { place, secrets } = scene;
  writePrivateFile(place.file, rewriteSecrets(scene.text!, result.values, scene.format));
  const old = readBase(ctx.config, place.url, place.org, place.project, place.env) ?? {};
  const base: Base = {};
  for (const s of secrets) {
    if (!result.conflicts.includes(s.key)) base[s.key] = { version: s.version, value: s.value };
  }
  for (const key of result.conflicts) if (old[key]) base[key] = old[key];
  writeBase(ctx.config, place.url, place.org, place.project, place.env, base);
  writeRecord(ctx.config, place, result.record);
  const { taken, kept, conflicts } = result;
  ctx.out.result(
    {
      file: place.file,
      secrets: secrets.map(({ key, version }) => ({ key, version })),
      merged: { taken, kept, conflicts },
    },
    () =>
      ctx.out.line(
        `Merged ${place.project}/${place.env} into ${place.file}: ${taken.length} server change(s) taken` +
          (taken.length ? ` (${taken.join(', ')})` : '') +
          `, ${kept.length} local edit(s) kept` +
          (kept.length ? ` (${kept.join(', ')}; push them to send them)` : '') +
          '.',
      ),
  );
  if (conflicts.length === 0) return;
  ctx.out.warnTable(
    ['key', 'conflict'],
    conflicts.map((key) => [key, 'changed here and on the server']),
  );
  throw new CliError(
    `${conflicts.length} key(s) changed both here and on the server: ${conflicts.join(', ')}. ` +
      'They were left as the file has them; the rest of the merge was written. Settle them in the ' +
      `file and push --rebase (latchkey push ${place.file} --rebase), or pull --force to take the server's values.`,
    EXIT.conflict,
  );
}
