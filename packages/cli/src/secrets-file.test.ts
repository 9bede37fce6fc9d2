import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changesOf } from './commands/push.js';
import { formatSecrets, parseSecrets } from './secrets-file.js';

const keys = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/);
const files = fc.dictionary(keys, fc.string({ unit: 'binary' }), { maxKeys: 8 });

describe('secrets files', () => {
  it('read back every value they wrote, newlines, quotes and unicode included, in both formats', () => {
    fc.assert(
      fc.property(files, (values) => {
        for (const format of ['env', 'json'] as const) {
          expect(parseSecrets(formatSecrets(values, format), 'f')).toEqual(values);
        }
      }),
    );
  });

  it('read the .env files people write: export, comments, blank lines, single quotes', () => {
    const text = '# a comment\n\nexport A=1\nB = two # trailing\nC=\'it is "quoted"\'\nD="line\\nbreak"\n';
    expect(parseSecrets(text, 'f')).toEqual({ A: '1', B: 'two', C: 'it is "quoted"', D: 'line\nbreak' });
  });

  it('escape U+2028 and U+2029 in .env, and read them raw from files written elsewhere', () => {
    const value = 'a\u2028b\u2029c';
    const text = formatSecrets({ A: value }, 'env');
    expect(text).toBe('A="a\\u2028b\\u2029c"\n');
    expect(parseSecrets(text, 'f')).toEqual({ A: value });
    expect(parseSecrets(`A="${value}"\n`, 'f')).toEqual({ A: value });
  });

  it('name the line that is not KEY=value, and an unterminated quote', () => {
    expect(() => parseSecrets('A=1\nnot a line\n', '.env')).toThrow('.env:2: expected KEY=value.');
    expect(() => parseSecrets('A="open\n', '.env')).toThrow('.env:1: unterminated double quote.');
    expect(() => parseSecrets('{"A": 1}', 's.json')).toThrow('the value of A is not a string');
  });
});

describe('what push sends', () => {
  const base = {
    SAME: { version: 3, value: 's' },
    EDITED: { version: 2, value: 'old' },
    GONE: { version: 5, value: 'g' },
  };

  it('sends changed, new and deleted keys, each with the version it was based on, and nothing else', () => {
    expect(changesOf({ SAME: 's', EDITED: 'new', ADDED: 'a' }, base)).toEqual([
      { key: 'ADDED', value: 'a', if_version: 0 },
      { key: 'EDITED', value: 'new', if_version: 2 },
      { key: 'GONE', delete: true, if_version: 5 },
    ]);
  });

  it('sends every key without versions when nothing was pulled', () => {
    expect(changesOf({ B: '2', A: '1' }, undefined)).toEqual([
      { key: 'A', value: '1' },
      { key: 'B', value: '2' },
    ]);
  });
});
