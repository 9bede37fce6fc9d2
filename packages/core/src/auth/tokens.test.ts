import { describe, expect, it } from 'vitest';
import { generateApiToken, hashToken } from './tokens.js';

describe('API tokens', () => {
  it('are lk_ + 32 random bytes and stored as SHA-256', () => {
    const token = generateApiToken();
    expect(token).toMatch(/^lk_[A-Za-z0-9_-]{43}$/);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(generateApiToken()).not.toBe(token);
  });
});
