import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localEdits, mergePull } from './pull-merge.js';
import { hashValue, recordOf, wasLeft } from './pull-record.js';

describe('the record of what a pull left', () => {
  it('matches the values it was made of and nothing else, absence included', () => {
    const record = recordOf({ A: '1', B: '' });
    expect(wasLeft(record, 'A', '1')).toBe(true);
    expect(wasLeft(record, 'A', '2')).toBe(false);
    expect(wasLeft(record, 'A', undefined)).toBe(false);
    expect(wasLeft(record, 'B', '')).toBe(true);
    expect(wasLeft(record, 'C', undefined)).toBe(true);
    expect(wasLeft(record, 'C', '1')).toBe(false);
    expect(wasLeft(undefined, 'A', '1')).toBe(false);
    expect(wasLeft({ salt: record.salt, values: { A: null } }, 'A', '1')).toBe(false);
  });

  it('holds keyed hashes under a random salt, never the values', () => {
    const one = recordOf({ PIN: '1234' });
    const two = recordOf({ PIN: '1234' });
    expect(JSON.stringify(one)).not.toContain('1234');
    expect(one.salt).not.toBe(two.salt);
    expect(one.values['PIN']).not.toBe(two.values['PIN']);
    expect(one.values['PIN']).toBe(hashValue(one.salt, '1234'));
    expect(Buffer.from(one.salt, 'base64url')).toHaveLength(32);
  });
});

describe('local edits a plain pull would destroy', () => {
  const record = recordOf({ SAME: 's', EDITED: 'e', REMOVED: 'r' });

  it('lists keys edited, added and removed since the record, and nothing when the file is as left', () => {
    expect(localEdits({ SAME: 's', EDITED: 'e', REMOVED: 'r' }, { SAME: 'new' }, record)).toEqual([]);
    expect(
      localEdits({ SAME: 's', EDITED: 'mine', ADDED: 'a' }, { SAME: 's', EDITED: 'e', REMOVED: 'r' }, record),
    ).toEqual([
      { key: 'ADDED', change: 'added' },
      { key: 'EDITED', change: 'edited' },
      { key: 'REMOVED', change: 'removed' },
    ]);
  });

  it('leaves out an edit that equals the server’s value: overwriting it loses nothing', () => {
    expect(localEdits({ SAME: 's', EDITED: 'theirs', REMOVED: 'r' }, { EDITED: 'theirs' }, record)).toEqual(
      [],
    );
  });

  it('with no record, counts every key that differs from the server', () => {
    expect(localEdits({ A: '1', B: 'mine', C: 'c' }, { A: '1', B: 'theirs', D: 'd' }, undefined)).toEqual([
      { key: 'B', change: 'edited' },
      { key: 'C', change: 'added' },
      { key: 'D', change: 'removed' },
    ]);
    expect(localEdits({ A: '1' }, { A: '1' }, undefined)).toEqual([]);
  });
});

describe('the three-way merge of a pull', () => {
  const left = {
    KEEP: 'k',
    LOCAL: 'l',
    SERVER: 's',
    BOTH: 'b',
    SAMEBOTH: 'x',
    GONE_HERE: 'g',
    GONE_THERE: 't',
  };
  const record = recordOf(left);
  const local = { ...left, LOCAL: 'l2', BOTH: 'mine', SAMEBOTH: 'y', NEW_HERE: 'n' } as Record<
    string,
    string
  >;
  delete local['GONE_HERE'];
  const server = { ...left, SERVER: 's2', BOTH: 'theirs', SAMEBOTH: 'y', NEW_THERE: 'm' } as Record<
    string,
    string
  >;
  delete server['GONE_THERE'];
  const result = mergePull(local, server, record);

  it('keeps local-only edits, takes server-only changes, settles equal changes, lists conflicts', () => {
    expect(result.values).toEqual({
      KEEP: 'k',
      LOCAL: 'l2',
      SERVER: 's2',
      BOTH: 'mine',
      SAMEBOTH: 'y',
      NEW_HERE: 'n',
      NEW_THERE: 'm',
    });
    expect(result.taken).toEqual(['GONE_THERE', 'NEW_THERE', 'SERVER']);
    expect(result.kept).toEqual(['GONE_HERE', 'LOCAL', 'NEW_HERE']);
    expect(result.conflicts).toEqual(['BOTH']);
  });

  it('records taken and settled keys as left, while kept and conflicting keys stay edited', () => {
    expect(localEdits(result.values, server, result.record).map((e) => e.key)).toEqual([
      'BOTH',
      'GONE_HERE',
      'LOCAL',
      'NEW_HERE',
    ]);
    // Merging again changes nothing and finds the same conflict.
    const again = mergePull(result.values, server, result.record);
    expect(again.values).toEqual(result.values);
    expect(again.taken).toEqual([]);
    expect(again.conflicts).toEqual(['BOTH']);
  });

  it('with no record, keeps the file and calls every difference from the server a conflict, until settled', () => {
    const blind = mergePull({ A: '1', B: 'mine' }, { A: '1', B: 'theirs', C: 'c' }, undefined);
    expect(blind.values).toEqual({ A: '1', B: 'mine' });
    expect(blind.conflicts).toEqual(['B', 'C']);
    expect(blind.taken).toEqual([]);
    const next = mergePull(blind.values, { A: '1', B: 'theirs', C: 'c', D: 'd' }, blind.record);
    expect(next.conflicts).toEqual(['B', 'C']);
    expect(next.taken).toEqual(['D']);
  });

  it('never loses a value: each key ends as the file or the server has it, the file’s when both changed', () => {
    const values = fc.dictionary(fc.constantFrom('A', 'B', 'C', 'D'), fc.constantFrom('1', '2', '3'));
    fc.assert(
      fc.property(values, values, values, (base, mine, theirs) => {
        const merged = mergePull(mine, theirs, recordOf(base));
        for (const key of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
          const localChanged = mine[key] !== base[key];
          const expected = localChanged ? mine[key] : theirs[key];
          expect(merged.values[key]).toBe(expected);
          expect(merged.conflicts.includes(key)).toBe(
            localChanged && theirs[key] !== base[key] && mine[key] !== theirs[key],
          );
        }
        // A file equal to the record takes the server whole.
        expect(mergePull(base, theirs, recordOf(base)).values).toEqual(theirs);
      }),
    );
  });
});
