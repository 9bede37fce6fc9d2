import { describe, expect, it } from 'vitest';
import { isLatchkeyError } from '../errors/latchkey-error.js';
import { inBackupSlot, MAX_STREAMING_BACKUPS } from './backup-slots.js';

async function* lines(n: number) {
  for (let i = 0; i < n; i++) yield `line ${i}\n`;
}

const codeOf = (run: () => unknown) => {
  try {
    run();
    return null;
  } catch (error) {
    return isLatchkeyError(error) ? [error.code, error.retryAfterSeconds] : error;
  }
};

describe('backup slots', () => {
  it('streams one backup per organization and a few in all, each slot back when its body ends, fails or closes', async () => {
    const store = {};
    const body = inBackupSlot(store, 'org_a', 0, lines(2));
    expect(codeOf(() => inBackupSlot(store, 'org_a', 0, lines(1)))).toEqual(['limit_exceeded', undefined]);
    const read: string[] = [];
    for await (const line of body) read.push(line);
    expect(read).toEqual(['line 0\n', 'line 1\n']);
    // Ended: the organization may back up again; closed part-way, too.
    const again = inBackupSlot(store, 'org_a', 0, lines(3))[Symbol.asyncIterator]();
    await again.next();
    await again.return?.();
    const failing = inBackupSlot(
      store,
      'org_a',
      0,
      (async function* () {
        yield 'x';
        throw new Error('read failed');
      })(),
    );
    await expect(async () => {
      for await (const _ of failing);
    }).rejects.toThrow('read failed');
    // Closed before it was read at all (an answer dropped): back at once.
    await inBackupSlot(store, 'org_a', 0, lines(1))[Symbol.asyncIterator]().return?.();
    const held = Array.from({ length: MAX_STREAMING_BACKUPS }, (_, i) =>
      inBackupSlot(store, `org_${i}`, 0, lines(1))[Symbol.asyncIterator](),
    );
    await held[0]!.next();
    expect(codeOf(() => inBackupSlot(store, 'org_x', 1_000, lines(1)))).toEqual(['service_unavailable', 5]);
    // Another store (another core) has slots of its own.
    expect(codeOf(() => inBackupSlot({}, 'org_x', 1_000, lines(1)))).toBeNull();
    // An answer nobody began to read is taken back after 30 s; one being read is not.
    expect(codeOf(() => inBackupSlot(store, 'org_x', 31_000, lines(1)))).toBeNull();
    expect(codeOf(() => inBackupSlot(store, 'org_0', 31_000, lines(1)))).toEqual([
      'limit_exceeded',
      undefined,
    ]);
  });
});
