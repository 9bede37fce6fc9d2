import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSecrets, parseSecrets } from './secrets-file.js';
import { rewriteSecrets } from './secrets-rewrite.js';

describe('a secrets file rewritten with its layout kept', () => {
  it('keeps comments, blank lines, export and order; rewrites changed lines, drops removed ones, appends new keys', () => {
    const text =
      '# database\nexport DB_URL=postgres://old  # the primary\n\nZ_FIRST=1\nGONE=x\nA_LAST="two words"\n';
    const next = rewriteSecrets(
      text,
      { DB_URL: 'postgres://new', Z_FIRST: '1', A_LAST: 'two words', NEW_B: 'b', NEW_A: 'a b' },
      'env',
    );
    expect(next).toBe(
      '# database\nexport DB_URL=postgres://new\n\nZ_FIRST=1\nA_LAST="two words"\nNEW_A="a b"\nNEW_B=b\n',
    );
  });

  it('leaves an unchanged file byte for byte, and ends the last line before appending', () => {
    const text = "A='single'\r\nB=2";
    expect(rewriteSecrets(text, { A: 'single', B: '2' }, 'env')).toBe(text);
    expect(rewriteSecrets(text, { A: 'single', B: '3', C: '4' }, 'env')).toBe("A='single'\r\nB=3\nC=4\n");
  });

  it('keeps the key order of a JSON file and appends new keys', () => {
    const text = '{"Z": "1", "A": "2", "GONE": "3"}';
    expect(rewriteSecrets(text, { A: 'two', Z: '1', B: 'b' }, 'json')).toBe(
      '{\n  "Z": "1",\n  "A": "two",\n  "B": "b"\n}\n',
    );
  });

  it('writes afresh when the file is of the other format', () => {
    expect(rewriteSecrets('A=1\n', { A: '1' }, 'json')).toBe(formatSecrets({ A: '1' }, 'json'));
    expect(rewriteSecrets('{"A": "1"}', { A: '1' }, 'env')).toBe('A=1\n');
  });

  it('always reads back as exactly the new values, in both formats', () => {
    const keys = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/);
    const files = fc.dictionary(keys, fc.string({ unit: 'binary' }), { maxKeys: 6 });
    fc.assert(
      fc.property(files, files, (before, after) => {
        for (const format of ['env', 'json'] as const) {
          const text = rewriteSecrets(formatSecrets(before, format), after, format);
          expect(parseSecrets(text, 'f')).toEqual(after);
        }
      }),
    );
  });
});
