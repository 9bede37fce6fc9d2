/**
 * The keyring's part of the store conformance suite: the key ids a store's data was sealed with,
 * each recorded once with the check value of whoever recorded it first, even when instances race.
 */
import type { LatchkeyStore } from '@latchkey/core';
import { expect } from 'vitest';
import { it } from '../keyed/keyed.js';

export interface KeyIdFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

/** Registers the tests; `fixture` is read when each test runs. */
export function describeKeyIdTests(fixture: () => KeyIdFixture): void {
  it('key ids: records an id with its check once; a later check for the id gets the first one back', async () => {
    const { store, id } = fixture();
    const keyId = id('k');
    expect(await store.keyIds.record(keyId, 'check-of-the-first-key')).toBe('check-of-the-first-key');
    expect(await store.keyIds.record(keyId, 'check-of-another-key')).toBe('check-of-the-first-key');
    const listed = await store.keyIds.list();
    expect(listed.filter((entry) => entry.key_id === keyId)).toEqual([
      { key_id: keyId, check: 'check-of-the-first-key' },
    ]);
    const ids = listed.map((entry) => entry.key_id);
    expect(ids).toEqual([...ids].sort());
  });

  it('key ids: instances recording one id at once all get the same winning check', async () => {
    const { store, id } = fixture();
    const keyId = id('k');
    const kept = await Promise.all(
      Array.from({ length: 8 }, (_, n) => store.keyIds.record(keyId, `check-of-instance-${n}`)),
    );
    expect(new Set(kept).size).toBe(1);
    expect(kept[0]).toMatch(/^check-of-instance-\d$/);
    expect((await store.keyIds.list()).find((entry) => entry.key_id === keyId)).toEqual({
      key_id: keyId,
      check: kept[0],
    });
  });

  it('key ids: forgets only the ids it is given; a rolled-back record leaves nothing', async () => {
    const { store, id } = fixture();
    const [gone, kept, undone] = [id('k'), id('k'), id('k')];
    await store.keyIds.record(gone, 'a');
    await store.keyIds.record(kept, 'b');
    await store.keyIds.forget([gone]);
    await expect(
      store.transaction(async (tx) => {
        await tx.keyIds.record(undone, 'c');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const ids = (await store.keyIds.list()).map((entry) => entry.key_id);
    expect(ids).toContain(kept);
    expect(ids).not.toContain(gone);
    expect(ids).not.toContain(undone);
    // A forgotten id may be recorded again, with a new check.
    expect(await store.keyIds.record(gone, 'd')).toBe('d');
  });
}
