import { describe, expect, it } from 'vitest';
import { pgliteDriver } from '../src/pglite.js';

describe('pgliteDriver options', () => {
  it('passes PGlite options through, such as a smaller shared buffer cache', async () => {
    const small = await pgliteDriver({ pglite: { postgresqlconf: ['shared_buffers = 16MB'] } });
    const plain = await pgliteDriver();
    try {
      expect(
        (await small.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers,
      ).toBe('16MB');
      expect(
        (await plain.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers,
      ).toBe('128MB');
    } finally {
      await small.close();
      await plain.close();
    }
  });
});
