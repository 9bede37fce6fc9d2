import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGLITE_MEMORY_DEFAULTS, pgliteDriver } from '../src/pglite.js';

// Directories, which start from the template: PGlite's initdb in memory, twice, took half a minute.
const root = mkdtempSync(join(tmpdir(), 'latchkey-pglite-options-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const show = async (driver: Awaited<ReturnType<typeof pgliteDriver>>, setting: string) =>
  (await driver.query<Record<string, string>>(`SHOW ${setting}`)).rows[0]![setting];

describe('pgliteDriver options', { timeout: 90_000 }, () => {
  it('opens PostgreSQL with memory settings sized for an embedded store, each overridable', async () => {
    const sized = await pgliteDriver(join(root, 'sized'));
    const bigger = await pgliteDriver({
      dataDir: join(root, 'bigger'),
      memory: { sharedBuffers: '32MB', workMem: '8MB' },
    });
    try {
      expect(await show(sized, 'shared_buffers')).toBe(PGLITE_MEMORY_DEFAULTS.sharedBuffers);
      expect(await show(sized, 'work_mem')).toBe('2MB');
      expect(await show(sized, 'maintenance_work_mem')).toBe('16MB');
      expect(await show(sized, 'temp_buffers')).toBe('2MB');
      expect(await show(sized, 'wal_buffers')).toBe('512kB');
      expect(await show(bigger, 'shared_buffers')).toBe('32MB');
      expect(await show(bigger, 'work_mem')).toBe('8MB');
      expect(await show(bigger, 'maintenance_work_mem')).toBe('16MB');
      expect(sized.wasmHeapBytes()).toBeGreaterThanOrEqual(128 * 2 ** 20);
    } finally {
      await sized.close();
      await bigger.close();
    }
    expect(sized.wasmHeapBytes()).toBe(0);
  });

  it("leaves PGlite's own server arguments in place when given start parameters", async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const plain = await pgliteDriver({
      dataDir: join(root, 'plain'),
      pglite: { startParams: PGlite.defaultStartParams },
    });
    try {
      expect(await show(plain, 'shared_buffers')).toBe('128MB');
    } finally {
      await plain.close();
    }
  });

  it('refuses a memory setting that is not a size, naming it', async () => {
    await expect(pgliteDriver({ memory: { sharedBuffers: '16MB -c fsync=off' } })).rejects.toThrow(
      'memory.sharedBuffers must be a size such as "16MB" or "512kB", got "16MB -c fsync=off"',
    );
  });

  it('refuses a WebAssembly compiler it does not have, naming the option, before PGlite opens', async () => {
    await expect(pgliteDriver({ wasmCompiler: 'turbofan' as never })).rejects.toThrow(
      'wasmCompiler must be "liftoff" or "optimizing", got "turbofan"',
    );
  });
});
