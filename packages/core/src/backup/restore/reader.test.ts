import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCore } from '../../core.js';
import { isLatchkeyError } from '../../errors/latchkey-error.js';
import { type BackupManifest, emptyBackupCounts } from '../../model/backup-format.js';
import { RESTORE_LIMIT_DEFAULTS } from './limits.js';
import { readBackup } from './reader.js';

const TOKEN = 'lk_restore_reader_test_token_000000000000000';
let backup = '';

beforeAll(async () => {
  // Backups carry a signed checkpoint, so the core that makes one needs an audit key.
  const core = createCore({ auditKey: generateKeyPairSync('ed25519').privateKey });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const response = await core.handle({
    method: 'GET',
    url: '/api/v2/organizations/acme/backup',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  const body = response.body as string | AsyncIterable<string | Uint8Array>;
  if (typeof body === 'string') backup = body;
  else
    for await (const chunk of body)
      backup += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
});

/** The manifest a client computes over `content`. */
function manifestOf(content: string): BackupManifest {
  const lines = content.trimEnd().split('\n');
  const marker = lines.findIndex((line) => JSON.parse(line).kind === 'events');
  const counts = emptyBackupCounts();
  for (const line of lines.slice(1, marker)) counts[JSON.parse(line).kind as keyof typeof counts]++;
  counts.event = lines.length - marker - 1;
  return {
    sha256: createHash('sha256').update(content).digest('hex'),
    bytes: Buffer.byteLength(content),
    counts,
  };
}

/** The backup with its header line widened by `spaces` blanks (JSON allows them). */
const widened = (spaces: number) => {
  const end = backup.indexOf('\n');
  return `${backup.slice(0, end - 1)}${' '.repeat(spaces)}}${backup.slice(end)}`;
};

/** `text` cut every `size` characters, counting how many pieces the reader took. */
function cut(text: string, size: number) {
  const taken = { count: 0, of: Math.ceil(text.length / size) };
  async function* parts() {
    for (let at = 0; at < text.length; at += size) {
      taken.count++;
      yield text.slice(at, at + size);
    }
  }
  return { parts: parts(), taken };
}

async function read(content: string, size: number, maxLineBytes = RESTORE_LIMIT_DEFAULTS.maxLineBytes) {
  const { parts, taken } = cut(content, size);
  const kinds: string[] = [];
  for await (const item of readBackup(parts, manifestOf(content), true, maxLineBytes)) kinds.push(item.kind);
  return { kinds, taken };
}

describe('readBackup', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads a line spanning a thousand parts by searching each character once', async () => {
    const content = widened(1_000_000);
    const indexOf = String.prototype.indexOf;
    let scanned = 0;
    vi.spyOn(String.prototype, 'indexOf').mockImplementation(function (
      this: string,
      search: string,
      position?: number,
    ) {
      const at = indexOf.call(this, search, position);
      if (search === '\n')
        scanned += (at === -1 ? this.length : at + 1) - Math.min(position ?? 0, this.length);
      return at;
    });
    const { kinds, taken } = await read(content, 1_000);
    vi.restoreAllMocks();
    expect(taken.count).toBeGreaterThan(1_000);
    expect(kinds[0]).toBe('header');
    // Joining the held-over text with each part and searching it again looks at about 500,000,000.
    expect(scanned).toBeLessThanOrEqual(content.length);
  });

  it('refuses a line longer than the limit, naming it, without reading the parts after it', async () => {
    const content = widened(RESTORE_LIMIT_DEFAULTS.maxLineBytes + 4 * 1_048_576);
    const { parts, taken } = cut(content, 1_048_576);
    const reading = (async () => {
      for await (const _ of readBackup(
        parts,
        manifestOf(content),
        true,
        RESTORE_LIMIT_DEFAULTS.maxLineBytes,
      ));
    })();
    const error = await reading.catch((e: unknown) => e);
    expect(isLatchkeyError(error) && error.code).toBe('backup_invalid');
    expect((error as Error).message).toBe(
      `The backup is not valid: line 1: it is longer than ${RESTORE_LIMIT_DEFAULTS.maxLineBytes} bytes, the longest line this server reads`,
    );
    expect(taken.count).toBe(17);
    expect(taken.of).toBe(21);
  });

  it('gives the event loop a turn after every part', async () => {
    const content = widened(100_000);
    let turns = 0;
    let reading = true;
    const turn = () => {
      turns++;
      if (reading) setImmediate(turn);
    };
    setImmediate(turn);
    // The parts come without any I/O, as from the memory store.
    const { taken } = await read(content, 1_000).finally(() => {
      reading = false;
    });
    expect(turns).toBeGreaterThanOrEqual(taken.count);
  });
});
