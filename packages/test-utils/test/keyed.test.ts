import { expect, it as vitestIt } from 'vitest';
import { checkSkipList, describeKeyed, it } from '../src/keyed.js';

vitestIt('refuses a skip without a written reason', () => {
  expect(() => checkSkipList('suite', { 'a test': '' })).toThrow(/needs a written reason/);
  expect(() => checkSkipList('suite', { 'a test': 'flaky' })).toThrow(/needs a written reason/);
  expect(() => checkSkipList('suite', { 'a test': 'the backend has no row locks' })).not.toThrow();
});

vitestIt('refuses a skip naming no test of the suite', () => {
  const registered = new Set(['keeps slugs unique per parent']);
  expect(() => checkSkipList('suite', { 'keeps slugs unique': 'renamed since' }, registered)).toThrow(
    /names no such test: keeps slugs unique/,
  );
  expect(() =>
    checkSkipList('suite', { 'keeps slugs unique per parent': 'not on this backend' }, registered),
  ).not.toThrow();
});

vitestIt('refuses a test registered outside a keyed suite', () => {
  expect(() => it('stray', () => {})).toThrow(/outside a keyed suite/);
});

let ran = 0;
describeKeyed('a keyed suite', { 'is skipped by name': 'shows how a backend skips a test' }, () => {
  it('runs when not named', () => {
    ran++;
    expect(ran).toBe(1);
  });
  it('is skipped by name', () => {
    throw new Error('a skipped test must not run');
  });
});
