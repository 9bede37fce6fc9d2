import { describe, expect, it } from 'vitest';
import { isReadableJson, parseMediaType } from './media-type.js';

describe('parseMediaType', () => {
  it('reads type, subtype and parameters, quoted or not, names in any case', () => {
    const media = parseMediaType('Application/JSON ; Charset="UTF-8";  q=1')!;
    expect(media.type).toBe('application');
    expect(media.subtype).toBe('json');
    expect(Object.fromEntries(media.parameters)).toEqual({ charset: 'UTF-8', q: '1' });
    expect(parseMediaType('text/plain; x="a\\"b"')!.parameters.get('x')).toBe('a"b');
  });

  it('refuses malformed values and repeated parameters', () => {
    for (const bad of ['json', 'application/', '/json', 'application/json; charset', 'a/b; c="x', 'a/b c']) {
      expect(parseMediaType(bad), bad).toBeNull();
    }
    expect(parseMediaType('application/json; charset=utf-8; charset=utf-16')).toBeNull();
  });
});

describe('isReadableJson', () => {
  it('accepts JSON with no charset or UTF-8', () => {
    for (const ok of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/json; charset="utf-8"',
      'application/merge-patch+json',
    ]) {
      expect(isReadableJson(ok), ok).toBe(true);
    }
  });

  it('refuses other charsets and other types', () => {
    for (const bad of [
      'application/json; charset=utf-16',
      'application/json; charset="UTF-16LE"',
      'application/json; charset=latin1',
      'application/json; charset=utf8',
      'application/json; charset=utf-8; charset=utf-16',
      'text/plain',
      'text/json',
      'application/jsonx',
      'multipart/form-data; boundary=x',
    ]) {
      expect(isReadableJson(bad), bad).toBe(false);
    }
  });
});
