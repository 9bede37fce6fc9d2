/**
 * `latchkey backup restore FILE`: decrypts the backup here, checks it against its manifest (SHA-256,
 * length, counts) before anything is sent, then sends it to the server's staged restore in parts of
 * whole lines and commits; the server checks it all again and applies it in one transaction. An
 * organization that is not empty needs `--force`. Any failure abandons the staged restore.
 */
import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import {
  type BackupKey,
  COUNT_KINDS,
  ContentSplitter,
  checkBackup,
  decrypted,
  readIdentities,
  readPassphrase,
} from '../backup-file.js';
import type { BackupManifest } from '../backup-manifest.js';
import { type CommandContext, createContext, type GlobalOptions, seg } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { ApiError, type HttpClient } from '../http-client.js';
import { formatMb } from '../output.js';

/** Encoded size a part may reach: the server's default body limit is 1 MiB, JSON escaping included. */
const PART_BYTES = 900_000;

interface RestoreOptions {
  identity?: string;
  passphraseFile?: string;
  force?: boolean;
}

interface Restored {
  restored: Record<string, number>;
  event: { id: string; seq: number };
}

/** Registers `latchkey backup restore` under the `backup` command. */
export function registerBackupRestore(backup: Command): void {
  backup
    .command('restore')
    .description('Check an encrypted backup against its manifest, then restore it into the organization')
    .argument('<file>', 'the backup (an age file made by backup create)')
    .option('--identity <file>', 'an age identity file (AGE-SECRET-KEY-1…) of one of its recipients')
    .option('--passphrase-file <file>', 'the passphrase it was made with, on the first line of this file')
    .option('--force', 'replace the content of an organization that is not empty')
    .action(async (file: string, options: RestoreOptions, command: Command) => {
      if (Boolean(options.identity) === Boolean(options.passphraseFile)) {
        throw new CliError('Give --identity or --passphrase-file, not both.', EXIT.usage);
      }
      const key: BackupKey = options.identity
        ? { identities: readIdentities(options.identity) }
        : { passphrase: readPassphrase(options.passphraseFile!) };
      const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
      const { client, org } = ctx.connect();
      const started = Date.now();
      const manifest = await checkBackup(file, key, (bytes) =>
        ctx.out.progress(`checking: ${formatMb(bytes)} decrypted`),
      );
      ctx.out.done();
      const counts = Object.fromEntries(COUNT_KINDS.map((kind) => [kind, manifest.counts[kind] ?? 0]));
      const base = `/organizations/${seg(org)}/restores`;
      const session = await client.json<{ id: string }>('POST', base, {
        manifest: { sha256: manifest.sha256, bytes: manifest.bytes, counts },
        ...(options.force ? { force: true } : {}),
      });
      let result: Restored;
      try {
        await sendParts(ctx, client, `${base}/${session.id}`, file, key, manifest);
        ctx.out.progress('applying: the server checks and writes it in one transaction');
        result = await client.json<Restored>('POST', `${base}/${session.id}/commit`);
        ctx.out.done();
      } catch (error) {
        ctx.out.done();
        await client.json('DELETE', `${base}/${session.id}`).catch(() => undefined);
        throw error instanceof ApiError && error.code === 'backup_invalid'
          ? new CliError(`The server refused the backup: ${error.message}`, EXIT.verification)
          : error;
      }
      ctx.out.result({ file, organization: org, ...result }, () => {
        ctx.out.table(
          ['records', 'count'],
          Object.entries(result.restored).map(([kind, count]) => [kind, count]),
        );
        ctx.out.line(
          `Restored ${file} into ${org} in ${((Date.now() - started) / 1000).toFixed(1)} s (event ${result.event.seq}, backup_restored).`,
        );
      });
    });
}

/** Decrypts the file again and sends its content in parts; checks it is still what was checked. */
async function sendParts(
  ctx: CommandContext,
  client: HttpClient,
  path: string,
  file: string,
  key: BackupKey,
  manifest: BackupManifest,
): Promise<void> {
  const splitter = new ContentSplitter();
  const hash = createHash('sha256');
  let sent = 0;
  let index = 0;
  let part: string[] = [];
  let size = 0;
  const flush = async () => {
    if (part.length === 0) return;
    await client.json('PUT', `${path}/parts/${index}`, { data: part.join('') });
    index++;
    part = [];
    size = 0;
    ctx.out.progress(`restoring: ${formatMb(sent)} of ${formatMb(manifest.bytes)} sent`);
  };
  for await (const chunk of decrypted(file, key)) {
    const content = splitter.push(chunk);
    if (content.byteLength === 0) continue;
    hash.update(content);
    sent += content.byteLength;
    // Whole runs of lines at once (a decrypted chunk is 64 KiB), measured as JSON escapes them;
    // line by line only for a run too large for one part. Fewer, larger strings keep memory flat.
    const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
    const encoded = jsonLength(text);
    const pieces = encoded <= PART_BYTES ? [{ text, encoded }] : linesOf(text, file);
    for (const piece of pieces) {
      if (size + piece.encoded > PART_BYTES) await flush();
      part.push(piece.text);
      size += piece.encoded;
    }
  }
  await flush();
  if (hash.digest('hex') !== manifest.sha256) {
    throw new CliError(`${file} changed while it was being restored.`, EXIT.verification);
  }
}

/** The UTF-8 length of `text` as a JSON string body (what it adds to a part's request). */
const jsonLength = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

/** A run of lines too large for one part, line by line; a single line that large cannot be sent. */
function linesOf(text: string, file: string): { text: string; encoded: number }[] {
  return text.split(/(?<=\n)/).map((line) => {
    const encoded = jsonLength(line);
    if (encoded > PART_BYTES) {
      throw new CliError(`${file} holds a line longer than a request may carry (${encoded} bytes).`);
    }
    return { text: line, encoded };
  });
}
