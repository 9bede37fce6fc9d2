import { describe, expect, it } from 'vitest';
import { prefersPlainText } from './accept.js';

describe('prefersPlainText', () => {
  it('chooses text/plain only when Accept weighs it above JSON', () => {
    const prefers = (accept?: string) => prefersPlainText(accept === undefined ? {} : { accept });
    expect(prefers()).toBe(false);
    expect(prefers('*/*')).toBe(false);
    expect(prefers('text/plain')).toBe(true);
    expect(prefers('text/*')).toBe(true);
    expect(prefers('Text/Plain; charset=utf-8')).toBe(true);
    expect(prefers('application/json, text/plain')).toBe(false);
    expect(prefers('application/json;q=0.5, text/plain')).toBe(true);
    expect(prefers('text/plain;q=0.9, application/json;q=0.8')).toBe(true);
    expect(prefers('application/json, text/plain;q=0.5')).toBe(false);
    expect(prefers('text/plain;q=0, */*')).toBe(false);
    expect(prefers('text/plain, application/*')).toBe(false);
    expect(prefers('text/plain;q=bogus')).toBe(false);
  });
});
