/**
 * The manifest a backup file ends with, inside the encryption: the SHA-256 and length of every byte
 * before it and how many records of each kind they hold. `backup create` computes it while the
 * server's stream passes through; `backup restore` checks it before anything is sent.
 */
import { createHash } from 'node:crypto';

/** What the manifest repeats of the server's signed checkpoint (the header carries all of it). */
export interface ManifestCheckpoint {
  seq: number;
  key_id: string;
}

export interface BackupManifest {
  kind: 'manifest';
  format_version: number;
  organization: string | null;
  created_at: string | null;
  /** The audit key and chain head the server signed; null in a backup without a checkpoint. */
  checkpoint?: ManifestCheckpoint | null;
  bytes: number;
  sha256: string;
  counts: Record<string, number>;
}

/** Watches the backup's bytes go by: hashes them and counts its records by kind. */
export class ManifestBuilder {
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private pending = '';
  private inEvents = false;
  private readonly decoder = new TextDecoder();
  private header: {
    organization?: { slug?: string };
    created_at?: string;
    format_version?: number;
    checkpoint?: { seq?: number; key_id?: string };
  } = {};
  readonly counts: Record<string, number> = {};

  /** Takes the next chunk of the stream. */
  add(chunk: Uint8Array): void {
    this.hash.update(chunk);
    this.bytes += chunk.byteLength;
    if (this.inEvents) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) this.count('event');
      return;
    }
    this.pending += this.decoder.decode(chunk, { stream: true });
    let newline = this.pending.indexOf('\n');
    while (newline !== -1 && !this.inEvents) {
      this.record(this.pending.slice(0, newline));
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
    if (this.inEvents) {
      // The rest of this chunk is events: count their line ends.
      for (let i = this.pending.indexOf('\n'); i !== -1; i = this.pending.indexOf('\n', i + 1))
        this.count('event');
      this.pending = '';
    }
  }

  private record(text: string): void {
    const line = JSON.parse(text) as {
      kind?: string;
      organization?: { slug?: string };
      created_at?: string;
      format_version?: number;
      checkpoint?: { seq?: number; key_id?: string };
    };
    if (line.kind === 'latchkey_backup') this.header = line;
    else if (line.kind === 'events') this.inEvents = true;
    else if (line.kind) this.count(line.kind);
  }

  private count(kind: string): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
  }

  /** The bytes added so far. */
  bytesSoFar(): number {
    return this.bytes;
  }

  /** The header's signed checkpoint (the key that vouches for the history), or null without one. */
  checkpoint(): ManifestCheckpoint | null {
    const { checkpoint } = this.header;
    return typeof checkpoint?.seq === 'number' && typeof checkpoint.key_id === 'string'
      ? { seq: checkpoint.seq, key_id: checkpoint.key_id }
      : null;
  }

  /** The manifest {@link finish} made, once it has. */
  last: BackupManifest | null = null;

  /** The manifest of everything added (call once, at the end). */
  finish(): BackupManifest {
    this.last = {
      kind: 'manifest',
      format_version: this.header.format_version ?? 1,
      organization: this.header.organization?.slug ?? null,
      created_at: this.header.created_at ?? null,
      checkpoint: this.checkpoint(),
      bytes: this.bytes,
      sha256: this.hash.digest('hex'),
      counts: { ...this.counts },
    };
    return this.last;
  }
}
