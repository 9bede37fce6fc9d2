/**
 * `latchkey push FILE`: the keys of FILE that changed since `pull`, signed with this machine's
 * device key, each with the version it was based on as `if_version` (a new key: 0; a key gone from
 * the file: a delete). A conflict prints which keys moved and exits 3, so CI tells it from an outage.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { signPush, type UnsignedPush } from '@latchkey/core/client';
import type { Command } from 'commander';
import { createContext, type GlobalOptions } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { ApiError } from '../http-client.js';
import { formatTable } from '../output.js';
import { parseSecrets } from '../secrets-file.js';
import { environmentPath, sha256 } from './pull.js';

type Change = UnsignedPush['changes'][number];

/** What to send: the file against the versions `pull` saw (none seen: every key, without versions). */
export function changesOf(
  values: Record<string, string>,
  base: Record<string, { version: number; sha256: string }> | undefined,
): Change[] {
  const changes: Change[] = [];
  for (const [key, value] of Object.entries(values).sort(([a], [b]) => a.localeCompare(b))) {
    const seen = base?.[key];
    if (seen && seen.sha256 === sha256(value)) continue;
    changes.push(base ? { key, value, if_version: seen?.version ?? 0 } : { key, value });
  }
  for (const [key, seen] of Object.entries(base ?? {})) {
    if (!(key in values)) changes.push({ key, delete: true, if_version: seen.version });
  }
  return changes;
}

export function registerPush(program: Command): void {
  program
    .command('push')
    .description('Push the keys of FILE that changed since pull, signed by this device')
    .argument('<file>', 'a .env or JSON secrets file')
    .option(
      '--conflict-mode <mode>',
      'lenient, or strict: every change must carry the version it was based on',
      'lenient',
    )
    .option(
      '--force-overwrite',
      'overwrite whatever the server holds (owners and admins; recorded as push_force_overwrite)',
    )
    .action(
      async (file: string, options: { conflictMode: string; forceOverwrite?: boolean }, command: Command) => {
        if (options.conflictMode !== 'lenient' && options.conflictMode !== 'strict') {
          throw new CliError(
            `--conflict-mode must be lenient or strict, not "${options.conflictMode}".`,
            EXIT.usage,
          );
        }
        const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
        const { url, client, org } = ctx.connect();
        const { project, env } = ctx.scope();
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch (error) {
          throw new CliError(
            `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
          );
        }
        const values = parseSecrets(text, file);
        const state = ctx.config.state(url.href, org);
        if (!state.device) {
          throw new CliError(
            'This machine has no device for this server and organization: run `latchkey device enroll --name …` first.',
          );
        }
        const base = state.versions?.[`${project}/${env}`];
        const changes = changesOf(values, base);
        if (changes.length === 0) {
          ctx.out.result({ versions: [], event_id: null }, () =>
            ctx.out.line(`Nothing changed since the last pull of ${project}/${env}.`),
          );
          return;
        }
        let privateKey: ReturnType<typeof createPrivateKey>;
        try {
          privateKey = createPrivateKey(readFileSync(state.device.keyFile));
        } catch (error) {
          throw new CliError(
            `Cannot read the device key ${state.device.keyFile}: ${(error as Error).message}`,
          );
        }
        const body = signPush(
          {
            device_id: state.device.id,
            changes,
            conflict_mode: options.conflictMode,
            ...(options.forceOverwrite ? { force_overwrite: true } : {}),
          },
          { organization: org, project, environment: env },
          privateKey,
        );
        let result: { versions: { key: string; version: number }[]; event_id: string };
        try {
          result = await client.json('POST', `${environmentPath(org, project, env)}/push`, body);
        } catch (error) {
          if (error instanceof ApiError) explainConflict(ctx.out, error);
          throw error;
        }
        ctx.config.updateState(url.href, org, (s) => {
          s.versions ??= {};
          s.versions[`${project}/${env}`] ??= {};
          const seen = s.versions[`${project}/${env}`]!;
          for (const change of changes) if (change.delete) delete seen[change.key];
          for (const { key, version } of result.versions) {
            if (key in values) seen[key] = { version, sha256: sha256(values[key]!) };
          }
        });
        ctx.out.result(result, () => {
          ctx.out.table(
            ['key', 'change', 'version'],
            changes.map((c) => [
              c.key,
              c.delete ? 'deleted' : base?.[c.key] ? 'updated' : 'added',
              result.versions.find((v) => v.key === c.key)?.version,
            ]),
          );
          ctx.out.line(`Pushed ${changes.length} change(s) to ${project}/${env} (event ${result.event_id}).`);
        });
      },
    );
}

/** The keys a 409 or 428 names, as a table on stderr (stdout stays clean for `--json`). */
function explainConflict(out: { json: boolean; warn(text: string): void }, error: ApiError): void {
  const conflicts = error.body['conflicts'] as
    | { key: string; server_version: number; client_if_version: number }[]
    | undefined;
  const keys = error.body['keys'] as string[] | undefined;
  if (conflicts?.length) {
    const rows = conflicts.map((c) => [c.key, String(c.server_version), String(c.client_if_version)]);
    out.warn(
      [
        'These keys changed on the server since your pull:',
        formatTable(['key', 'server version', 'your version'], rows),
        'Pull again and re-apply your changes (or push --force-overwrite, if your role allows it).',
      ].join('\n'),
    );
  } else if (keys?.length) {
    out.warn(
      `Strict mode needs the version each change is based on; none is known for: ${keys.join(', ')}. Pull first.`,
    );
  }
}
