/**
 * `latchkey backup create`: the organization's backup from the server, encrypted here as an age
 * file (X25519 recipients or a passphrase, so the standard `age` tool decrypts it), ending with a
 * manifest of its content; written to `OUT.partial` and renamed when complete. The server's header
 * carries the signed checkpoint of its activity log, passed through as it came. The server's stream
 * passes through hash, encryption and file without being held in memory.
 */
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import { readPassphrase } from '../backup-file.js';
import { ManifestBuilder } from '../backup-manifest.js';
import { createContext, type GlobalOptions, seg } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { formatMb } from '../output.js';
import { registerBackupRestore } from './backup-restore.js';

/** Registers `latchkey backup` with its `create` and `restore` commands. */
export function registerBackup(program: Command): void {
  const backup = program.command('backup').description('Encrypted backups of an organization');
  registerBackupRestore(backup);
  backup
    .command('create')
    .description('Download the organization and write it as an age-encrypted file')
    .requiredOption('--out <file>', 'the file to write (an age file)')
    .option('--recipient <key...>', 'age X25519 public keys (age1…) that may decrypt it')
    .option('--passphrase-file <file>', 'encrypt with the passphrase on the first line of this file instead')
    .action(
      async (options: { out: string; recipient?: string[]; passphraseFile?: string }, command: Command) => {
        const recipients = options.recipient ?? [];
        if (recipients.length > 0 === Boolean(options.passphraseFile)) {
          throw new CliError('Give --recipient (one or more) or --passphrase-file, not both.', EXIT.usage);
        }
        // Loaded when a backup is written, not with every command (a tenth of a second at start).
        const { Encrypter } = await import('age-encryption');
        const encrypter = new Encrypter();
        for (const recipient of recipients) {
          if (!/^age1[02-9ac-hj-np-z]{58}$/.test(recipient)) {
            throw new CliError(`"${recipient}" is not an age X25519 recipient (age1…).`, EXIT.usage);
          }
          encrypter.addRecipient(recipient);
        }
        if (options.passphraseFile) encrypter.setPassphrase(readPassphrase(options.passphraseFile));
        const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
        const { client, org } = ctx.connect();
        const response = await client.stream(`/organizations/${seg(org)}/backup`);
        const manifest = new ManifestBuilder();
        const started = Date.now();
        const plain = (response.body as unknown as WebReadableStream<Uint8Array>).pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              manifest.add(chunk);
              ctx.out.progress(`backing up: ${formatMb(manifest.bytesSoFar())} received`);
              controller.enqueue(chunk);
            },
            flush(controller) {
              controller.enqueue(new TextEncoder().encode(`${JSON.stringify(manifest.finish())}\n`));
            },
          }) as unknown as import('node:stream/web').TransformStream<Uint8Array, Uint8Array>,
        );
        const encrypted = await encrypter.encrypt(plain as unknown as ReadableStream<Uint8Array>);
        const partial = `${options.out}.partial`;
        try {
          await pipeline(
            Readable.fromWeb(encrypted as unknown as WebReadableStream<Uint8Array>),
            createWriteStream(partial, { mode: 0o600 }),
          );
        } catch (error) {
          rmSync(partial, { force: true });
          throw new CliError(`The backup broke off: ${(error as Error).message}`);
        }
        renameSync(partial, options.out);
        ctx.out.done();
        const result = manifest.last!;
        ctx.out.result({ file: options.out, manifest: result }, () => {
          ctx.out.table(
            ['records', 'count'],
            Object.entries(result.counts).map(([kind, count]) => [kind, count]),
          );
          ctx.out.line(
            `Backed up ${org} to ${options.out} (${formatMb(result.bytes)} before encryption, sha256 ${result.sha256.slice(0, 16)}…) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
          );
          // A restore elsewhere needs this key trusted (core option trustedAuditKeys).
          if (result.checkpoint) {
            ctx.out.line(
              `Its activity log is signed up to event ${result.checkpoint.seq} by audit key ${result.checkpoint.key_id}.`,
            );
          }
        });
      },
    );
}
