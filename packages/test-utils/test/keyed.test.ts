import { expect, it as vitestIt } from 'vitest';
import { checkSkipList, describe, describeKeyed, it } from '../src/keyed/keyed.js';

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

vitestIt('registers unnamed tests and skips named ones with their reason, groups included', () => {
  const log: string[] = [];
  const runner = {
    describe: (title: string, body: () => void) => {
      log.push(`describe ${title}`);
      body();
    },
    it: (name: string) => log.push(`it ${name}`),
    skip: (name: string) => log.push(`skip ${name}`),
  };
  describeKeyed(
    'suite',
    { 'is skipped by name': 'the backend has no row locks' },
    () => {
      it('runs when not named', () => {});
      describe('a group', () => {
        it('is skipped by name', () => {});
      });
    },
    runner,
  );
  expect(log).toEqual([
    'describe suite',
    'it runs when not named',
    'describe a group',
    'skip is skipped by name — skipped: the backend has no row locks',
  ]);
  expect(() =>
    describeKeyed('suite', { 'no such test': 'renamed since then' }, () => it('another', () => {}), runner),
  ).toThrow(/names no such test: no such test/);
  expect(() =>
    describeKeyed(
      'suite',
      {},
      () => {
        it('twice', () => {});
        it('twice', () => {});
      },
      runner,
    ),
  ).toThrow(/two tests are named "twice"/);
});
