/**
 * `latchkey activity export` streams the organization's activity log to a file (NDJSON or CSV),
 * with progress; `activity verify` checks an NDJSON export line by line (the hash chain from its
 * first event, the organization every line names and, with the organization's audit public key,
 * its signed checkpoint) and names the first bad line.
 */
import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { verifyActivityExport } from '@latchkey/core/client';
import type { Command } from 'commander';
import { type CommandContext, createContext, type GlobalOptions, seg } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { formatMb } from '../output.js';
import { registerActivityProve } from './activity-prove.js';
import { registerActivityWitness } from './activity-witness.js';

interface ExportOptions {
  out: string;
  format: string;
  since?: string;
  until?: string;
}

interface VerifyOptions {
  publicKey?: string;
  organization?: string;
  partial?: boolean;
}

/** Registers `activity export`, `verify`, `prove`, `witness` and `witness-key`. */
export function registerActivity(program: Command): void {
  const activity = program
    .command('activity')
    .description('Export the activity log, verify an export, prove an event, witness the log');

  activity
    .command('export')
    .description('Stream the activity log to a file, oldest first')
    .requiredOption('--out <file>', 'the file to write')
    .option('--format <format>', 'ndjson or csv', 'ndjson')
    .option('--since <time>', 'RFC 3339: events at or after')
    .option('--until <time>', 'RFC 3339: events before')
    .action(exportActivity);

  activity
    .command('verify')
    .description(
      'Check an NDJSON export from the chain’s first event: hash chain, organization, and the signed checkpoint with --public-key',
    )
    .argument('<file>', 'an NDJSON export')
    .option(
      '--public-key <key>',
      "the organization's audit public key (raw base64url or SPKI PEM), pinned out of band",
    )
    .option(
      '--organization <slug>',
      'the organization the export must be of (every event and the checkpoint name it); default the configured one',
    )
    .option('--partial', 'the export was made with --since: it may start after the chain’s first event')
    .action(verifyExport);

  registerActivityProve(activity);
  registerActivityWitness(activity);
}

async function exportActivity(options: ExportOptions, command: Command): Promise<void> {
  if (options.format !== 'ndjson' && options.format !== 'csv') {
    throw new CliError(`--format must be ndjson or csv, not "${options.format}".`, EXIT.usage);
  }
  const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
  const { client, org } = ctx.connect();
  const query = new URLSearchParams({ format: options.format });
  if (options.since) query.set('since', options.since);
  if (options.until) query.set('until', options.until);
  const response = await client.stream(`/organizations/${seg(org)}/activity/export?${query}`);
  const started = Date.now();
  const { lines, bytes } = await download(ctx, response, options.out);
  ctx.out.done();
  const seconds = (Date.now() - started) / 1000;
  ctx.out.result({ file: options.out, lines, bytes, seconds }, () =>
    ctx.out.line(
      `Exported ${lines.toLocaleString('en')} lines (${formatMb(bytes)}) to ${options.out} in ${seconds.toFixed(1)} s.`,
    ),
  );
}

/** Streams the response body to `out` with progress, counting its lines and bytes. */
async function download(
  ctx: CommandContext,
  response: Response,
  out: string,
): Promise<{ lines: number; bytes: number }> {
  // Written beside the target and renamed at the end, so a broken download never looks complete.
  const partial = `${out}.partial`;
  let bytes = 0;
  let lines = 0;
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    ctx.out.progress(`exporting: ${lines.toLocaleString('en')} lines, ${formatMb(bytes)}`);
  });
  try {
    await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
  } catch (error) {
    rmSync(partial, { force: true });
    throw new CliError(`The export broke off after ${formatMb(bytes)}: ${(error as Error).message}`);
  }
  renameSync(partial, out);
  return { lines, bytes };
}

async function verifyExport(file: string, options: VerifyOptions, command: Command): Promise<void> {
  const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
  const organization = options.organization ?? ctx.settings.org;
  if (!organization) {
    throw new CliError(
      'Which organization is this export of? Give --organization, --org, LATCHKEY_ORG, or `latchkey config set org …`.',
      EXIT.usage,
    );
  }
  const stream = createReadStream(file);
  let verdict: Awaited<ReturnType<typeof verifyActivityExport>>;
  try {
    verdict = await verifyActivityExport(stream, {
      organization,
      ...(options.publicKey ? { publicKey: options.publicKey } : {}),
      ...(options.partial ? { partial: true } : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code) throw new CliError(`Cannot read ${file}: ${code}`);
    throw new CliError(`Cannot verify ${file}: ${(error as Error).message}`, EXIT.verification);
  }
  if (!verdict.ok) {
    ctx.out.result(verdict, () => undefined);
    throw new CliError(`${file}:${verdict.line}: ${verdict.reason}: ${verdict.message}`, EXIT.verification);
  }
  const { checkpoint, head, events } = verdict;
  ctx.out.result({ ...verdict, organization, partial: options.partial === true }, () => {
    const from = options.partial ? 'chain intact' : 'chain intact from its first event';
    ctx.out.line(
      `${file}: ${events.toLocaleString('en')} events of ${organization}, ${from} up to seq ${head.seq}.`,
    );
    if (checkpoint && options.publicKey)
      ctx.out.line(`Checkpoint at seq ${checkpoint.seq} signed by the given key: valid.`);
    else if (checkpoint)
      ctx.out.line('Checkpoint present but not checked: give --public-key to detect truncation.');
    else ctx.out.line('No checkpoint: give --public-key to require one.');
  });
}
