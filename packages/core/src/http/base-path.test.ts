import { describe, expect, it } from 'vitest';
import { isUnderBasePath } from './base-path.js';

describe('isUnderBasePath', () => {
  it.each([
    ['/api/v2', true],
    ['/api/v2/', true],
    ['/api/v2/organizations/acme', true],
    ['/api/v2?x=1', true],
    ['/api/v2/x?y=/z', true],
    // The absolute form routes on its path, as in core.
    ['http://example.test/api/v2/x', true],
    ['http://example.test/other', false],
    ['/api/v2-lookalike', false],
    ['/api', false],
    ['/', false],
    ['/other?next=/api/v2', false],
    ['/API/v2', false],
  ])('%s under /api/v2: %s', (target, expected) => {
    expect(isUnderBasePath(target, '/api/v2')).toBe(expected);
  });

  it('takes every path when the API sits at the root', () => {
    expect(isUnderBasePath('/anything', '')).toBe(true);
  });
});
