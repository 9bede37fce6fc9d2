import { describe, expect, it } from 'vitest';
import { EVENT_TYPE_NAMES } from '../activity/event-types/index.js';
import { filterSelects, likePatterns, normalizeFilter, patternsSelecting } from './event-filter.js';
import { outboxState } from './outbox.js';
import { unknownEventTypes } from './unknown-event-types.js';

/** `LIKE` as PostgreSQL reads it (backslash escapes), to check the patterns without a database. */
const like = (pattern: string, text: string) => {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') source += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') source += '.*';
    else if (c === '_') source += '.';
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's').test(text);
};

const FILTERS = [
  [],
  ['push_*'],
  ['push_applied'],
  ['member_added', 'token_*'],
  ['*'],
  ['p*'],
  ['push_applied*'],
];
const TYPES = [...EVENT_TYPE_NAMES, 'pushXapplied', 'push%'];

describe('event-type filters', () => {
  it('selects names exactly and prefixes by their start; empty selects everything', () => {
    expect(filterSelects([], 'push_applied')).toBe(true);
    expect(filterSelects(['push_*'], 'push_force_overwrite')).toBe(true);
    expect(filterSelects(['push_*'], 'pushed')).toBe(false);
    expect(filterSelects(['push_applied'], 'push_applied_more')).toBe(false);
    expect(filterSelects(['token_created', 'member_*'], 'member_removed')).toBe(true);
    expect(filterSelects(['token_created'], 'token_revoked')).toBe(false);
  });

  it('is the same rule as an array overlap and as LIKE patterns (SQL), for every type and filter', () => {
    for (const filter of FILTERS) {
      for (const type of TYPES) {
        const expected = filterSelects(filter, type);
        const overlap = filter.length === 0 || patternsSelecting(type).some((p) => filter.includes(p));
        const likes = likePatterns(filter).some((p) => like(p, type));
        expect({ filter, type, overlap, likes }).toEqual({
          filter,
          type,
          overlap: expected,
          likes: expected,
        });
      }
    }
  });

  it('names the entries that select no catalogued type', () => {
    expect(unknownEventTypes(['push_applied', 'push_*', '*', 'nope', 'zzz*', 'push_aplied'])).toEqual([
      'nope',
      'zzz*',
      'push_aplied',
    ]);
    expect(unknownEventTypes(['secret_versions_read'])).toEqual([]);
  });

  it('keeps a filter without repeats, in the order given', () => {
    expect(normalizeFilter(['b', 'a', 'b'])).toEqual(['b', 'a']);
    expect(normalizeFilter(undefined)).toEqual([]);
  });

  it('joins the outbox rule: a webhook is owed only what its filter selects', () => {
    expect(outboxState('active', 'push_applied', ['push_*'])).toBe('pending');
    expect(outboxState('dead_letter', 'push_applied', ['push_*'])).toBe('held');
    expect(outboxState('active', 'member_added', ['push_*'])).toBeNull();
    expect(outboxState('active', 'webhook_test', [])).toBeNull();
  });
});
