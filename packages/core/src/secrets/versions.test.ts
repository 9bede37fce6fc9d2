import { describe, expect, it } from 'vitest';
import { createCore } from '../core.js';
import { DEFAULT_SECRET_VERSIONS_KEPT, prunedThrough, toVersionsKept, versionRows } from './versions.js';

describe('secret versions', () => {
  it('keeps the values of the last N versions: writing version v drops those up to v - N', () => {
    expect(prunedThrough(1, 10)).toBe(0);
    expect(prunedThrough(10, 10)).toBe(0);
    expect(prunedThrough(11, 10)).toBe(1);
    expect(prunedThrough(15, 10)).toBe(5);
    expect(prunedThrough(3, 1)).toBe(2);
  });

  it('takes secretVersionsKept from 1 to 1000, 10 by default, and refuses anything else at createCore', () => {
    expect(toVersionsKept(undefined)).toBe(DEFAULT_SECRET_VERSIONS_KEPT);
    expect(DEFAULT_SECRET_VERSIONS_KEPT).toBe(10);
    expect(toVersionsKept(1)).toBe(1);
    expect(toVersionsKept(1000)).toBe(1000);
    for (const bad of [0, -1, 1.5, 1001, Number.NaN]) {
      expect(() => toVersionsKept(bad)).toThrow(/secretVersionsKept must be an integer from 1 to 1000/);
      expect(() => createCore({ secretVersionsKept: bad })).toThrow(/secretVersionsKept/);
    }
  });

  it('describes each written version by the push’s event, a delete as a tombstone', () => {
    const rows = versionRows(
      [
        { key: 'A', version: 3, value: 'sealed' },
        { key: 'B', version: 2, value: null },
      ],
      {
        id: 'evt_1',
        type: 'push_applied',
        occurred_at: '2026-11-25T00:00:00.000Z',
        organization: 'acme',
        actor: { type: 'user', id: 'ann' },
        device_id: 'dev_1',
        data: {},
      },
    );
    expect(rows).toEqual([
      {
        key: 'A',
        version: 3,
        deleted: false,
        value: 'sealed',
        occurred_at: '2026-11-25T00:00:00.000Z',
        actor: { type: 'user', id: 'ann' },
        device_id: 'dev_1',
        event_id: 'evt_1',
      },
      {
        key: 'B',
        version: 2,
        deleted: true,
        value: null,
        occurred_at: '2026-11-25T00:00:00.000Z',
        actor: { type: 'user', id: 'ann' },
        device_id: 'dev_1',
        event_id: 'evt_1',
      },
    ]);
  });
});
