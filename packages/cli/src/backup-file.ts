/**
 * Reading a backup file: decrypting it (an age file, with identities or a passphrase) as a stream,
 * and splitting its plaintext into the content and the manifest line it ends with. Nothing here
 * holds the file in memory: restore reads it twice, once to check it and once to send it.
 */
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type BackupManifest, ManifestBuilder } from './backup-manifest.js';
import { CliError, EXIT } from './exit-codes.js';

/** The keys that may open a backup: age identities from a file, or a passphrase. */
export type BackupKey = { identities: string[] } | { passphrase: string };

/** A file of key material, or a one-line failure naming it. */
function readKeyFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(
      `Cannot read the ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** The passphrase in a file: its first line. */
export function readPassphrase(file: string): string {
  const passphrase = readKeyFile(file, 'passphrase file').split(/\r?\n/, 1)[0] ?? '';
  if (passphrase.length < 10)
    throw new CliError(`The passphrase in ${file} is shorter than 10 characters.`, EXIT.usage);
  return passphrase;
}

/** The `AGE-SECRET-KEY-1…` lines of an identity file (as `age-keygen` writes it; comments skipped). */
export function readIdentities(file: string): string[] {
  const identities = readKeyFile(file, 'identity file')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.startsWith('AGE-SECRET-KEY-1'));
  if (identities.length === 0) {
    throw new CliError(`${file} holds no age identity (a line starting AGE-SECRET-KEY-1).`, EXIT.usage);
  }
  return identities;
}

/**
 * The file as a web stream read only as fast as it is consumed (64 KiB at a time), so memory stays
 * flat however slowly the parts go out; a converted Node stream reads ahead without bound.
 */
function fileStream(file: string): ReadableStream<Uint8Array> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      handle ??= await open(file, 'r');
      const buffer = Buffer.allocUnsafe(65_536);
      const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, null);
      if (bytesRead === 0) {
        await handle.close();
        controller.close();
        return;
      }
      controller.enqueue(buffer.subarray(0, bytesRead));
    },
    async cancel() {
      await handle?.close();
    },
  });
}

/** The file's plaintext, chunk by chunk; a wrong key, a damaged or a cut file is a verification failure. */
export async function* decrypted(file: string, key: BackupKey): AsyncGenerator<Uint8Array> {
  // Loaded when a backup is read, not with every command (a tenth of a second at start).
  const { Decrypter } = await import('age-encryption');
  const decrypter = new Decrypter();
  try {
    if ('passphrase' in key) decrypter.addPassphrase(key.passphrase);
    else for (const identity of key.identities) decrypter.addIdentity(identity);
  } catch (error) {
    throw new CliError(`The identity is not a valid age identity: ${(error as Error).message}`, EXIT.usage);
  }
  const input = fileStream(file);
  let stream: ReadableStream<Uint8Array>;
  try {
    stream = (await decrypter.decrypt(input)) as unknown as ReadableStream<Uint8Array>;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
      throw new CliError(`Cannot read ${file}: ${code}`);
    const which = 'passphrase' in key ? 'passphrase' : 'identity';
    throw new CliError(
      `Cannot decrypt ${file}: wrong ${which}, or not an age file (${(error as Error).message}).`,
      EXIT.verification,
    );
  }
  try {
    for await (const chunk of stream as unknown as WebReadableStream<Uint8Array>) yield chunk;
  } catch (error) {
    throw new CliError(
      `${file} is damaged or cut short: it does not decrypt to its end (${(error as Error).message}).`,
      EXIT.verification,
    );
  }
}

/**
 * Splits plaintext chunks into the content (yielded in pieces of whole lines) and the last line,
 * the manifest, which {@link ContentSplitter.manifestLine} gives once the input has ended.
 */
export class ContentSplitter {
  private held: Uint8Array = new Uint8Array(0);

  /** Takes a chunk; answers the content it completes (whole lines), holding back what may be the last line. */
  push(chunk: Uint8Array): Uint8Array {
    const buffer = this.held.byteLength === 0 ? chunk : Buffer.concat([this.held, chunk]);
    // A newline that is not the buffer's final byte ends a line that is certainly not the last one.
    const cut = buffer.lastIndexOf(10, buffer.byteLength - 2);
    if (cut === -1) {
      this.held = buffer;
      return new Uint8Array(0);
    }
    this.held = buffer.slice(cut + 1);
    return buffer.subarray(0, cut + 1);
  }

  /** The last line, without its newline. */
  manifestLine(): string {
    return Buffer.from(this.held).toString('utf8').replace(/\n$/, '');
  }
}

/** Content kinds a manifest counts, as the server's restore expects them. */
export const COUNT_KINDS = [
  'project',
  'environment',
  'secret',
  'deleted_secret',
  'secret_version',
  'member',
  'device',
  'audit_webhook',
  'workload_identity',
  'change_request',
  'event',
];

/**
 * Reads the whole file and checks it against the manifest it ends with: SHA-256, length and the
 * count of each kind, and that it carries the server's signed checkpoint (servers take a history
 * in only under one). Answers the manifest; a mismatch is a verification failure.
 */
export async function checkBackup(
  file: string,
  key: BackupKey,
  progress: (bytes: number) => void,
): Promise<BackupManifest> {
  const splitter = new ContentSplitter();
  const builder = new ManifestBuilder();
  for await (const chunk of decrypted(file, key)) {
    const content = splitter.push(chunk);
    if (content.byteLength === 0) continue;
    try {
      builder.add(content);
    } catch {
      throw new CliError(
        `${file} holds a line that is not JSON: it is not a Latchkey backup.`,
        EXIT.verification,
      );
    }
    progress(builder.bytesSoFar());
  }
  const actual = builder.finish();
  let stated: BackupManifest;
  try {
    stated = JSON.parse(splitter.manifestLine()) as BackupManifest;
  } catch {
    stated = {} as BackupManifest;
  }
  if (stated.kind !== 'manifest') {
    throw new CliError(
      `${file} does not end with a manifest: it is not a Latchkey backup.`,
      EXIT.verification,
    );
  }
  const countsMatch = COUNT_KINDS.every(
    (kind) => (stated.counts?.[kind] ?? 0) === (actual.counts[kind] ?? 0),
  );
  if (stated.sha256 !== actual.sha256 || stated.bytes !== actual.bytes || !countsMatch) {
    throw new CliError(
      `${file} does not match its manifest (SHA-256, length or counts): it was changed after it was made.`,
      EXIT.verification,
    );
  }
  if (!builder.checkpoint()) {
    throw new CliError(
      `${file} carries no signed checkpoint of its activity log (it was made before backups carried one), so no server will restore its history: make a new backup.`,
      EXIT.verification,
    );
  }
  return stated;
}
