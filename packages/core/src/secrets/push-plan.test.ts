import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KeyHead } from '../model/push-plan.js';
import { planPush, versionMatches } from './push-plan.js';

const heads = (entries: [string, KeyHead][]) => new Map(entries);

describe('versionMatches', () => {
  it('treats 0 as "no live value": a missing key or a tombstone', () => {
    expect(versionMatches(undefined, 0)).toBe(true);
    expect(versionMatches({ version: 3, deleted: true }, 0)).toBe(true);
    expect(versionMatches({ version: 3, deleted: false }, 0)).toBe(false);
  });

  it('matches a positive version only when it is the head', () => {
    expect(versionMatches({ version: 3, deleted: false }, 3)).toBe(true);
    expect(versionMatches({ version: 3, deleted: true }, 3)).toBe(true);
    expect(versionMatches({ version: 3, deleted: false }, 2)).toBe(false);
    expect(versionMatches(undefined, 1)).toBe(false);
  });
});

describe('planPush', () => {
  it('lists every conflicting key and plans no write', () => {
    const plan = planPush(
      heads([
        ['A', { version: 2, deleted: false }],
        ['B', { version: 5, deleted: false }],
      ]),
      [
        { key: 'A', value: 'x', if_version: 1 },
        { key: 'B', value: 'x', if_version: 5 },
        { key: 'C', value: 'x', if_version: 4 },
      ],
      false,
    );
    expect(plan).toEqual({
      ok: false,
      conflicts: [
        { key: 'A', server_version: 2, client_if_version: 1 },
        { key: 'C', server_version: 0, client_if_version: 4 },
      ],
    });
  });

  it('raises each key by one, tombstones included, and skips the check without if_version', () => {
    const plan = planPush(
      heads([['A', { version: 2, deleted: false }]]),
      [
        { key: 'A', value: null },
        { key: 'B', value: 'new', if_version: 0 },
      ],
      false,
    );
    expect(plan).toEqual({
      ok: true,
      writes: [
        { key: 'A', version: 3, value: null },
        { key: 'B', version: 1, value: 'new' },
      ],
      overwritten: [],
    });
  });

  it('with force ignores if_version and reports what it overwrote', () => {
    const plan = planPush(
      heads([['A', { version: 7, deleted: false }]]),
      [
        { key: 'A', value: 'x', if_version: 1 },
        { key: 'B', value: 'y' },
      ],
      true,
    );
    expect(plan).toMatchObject({
      ok: true,
      overwritten: [
        { key: 'A', server_version: 7, client_if_version: 1 },
        { key: 'B', server_version: 0, client_if_version: null },
      ],
    });
  });

  it('never plans a write when any if_version mismatches (property)', () => {
    const head = fc.record({ version: fc.integer({ min: 1, max: 5 }), deleted: fc.boolean() });
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('A', 'B', 'C', 'D'), head),
        fc.uniqueArray(
          fc.record({
            key: fc.constantFrom('A', 'B', 'C', 'D'),
            if_version: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
          }),
          {
            selector: (c) => c.key,
            minLength: 1,
          },
        ),
        (current, changes) => {
          const map = new Map(Object.entries(current));
          const plan = planPush(
            map,
            changes.map((c) => ({ ...c, value: 'v' })),
            false,
          );
          const mismatched = changes.filter(
            (c) => c.if_version !== undefined && !versionMatches(map.get(c.key), c.if_version),
          );
          if (mismatched.length > 0) {
            expect(plan.ok).toBe(false);
            if (!plan.ok) expect(plan.conflicts.map((c) => c.key)).toEqual(mismatched.map((c) => c.key));
          } else {
            expect(plan.ok).toBe(true);
            if (plan.ok) {
              for (const write of plan.writes)
                expect(write.version).toBe((map.get(write.key)?.version ?? 0) + 1);
            }
          }
        },
      ),
    );
  });
});
