import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from './exit-codes.js';
import { checkServerUrl, isLoopbackHost } from './http-client.js';

/** The exit code and message `checkServerUrl` refuses `raw` with, or null when it accepts it. */
const refusal = (raw: string) => {
  try {
    checkServerUrl(raw);
    return null;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { code: error.exitCode, message: error.message };
  }
};

describe('checkServerUrl', () => {
  it('allows plain http to loopback addresses in any spelling the URL parser reads', () => {
    for (const raw of [
      'http://127.0.0.1:8080',
      'http://127.45.6.7/',
      'http://127.1',
      'http://0x7f.0.0.1',
      'http://[::1]:3000/',
      'http://[0:0:0:0:0:0:0:1]',
      'http://localhost:3000',
      'http://LOCALHOST',
    ]) {
      expect({ raw, refused: refusal(raw) }).toEqual({ raw, refused: null });
    }
  });

  it('refuses plain http to names that only look like loopback, with exit 2 and a clear message', () => {
    for (const raw of [
      'http://127.example.com',
      'http://127.0.0.1.nip.io',
      'http://localhost.evil.com',
      'http://[::2]',
      'http://128.0.0.1',
      'http://latchkey.example',
    ]) {
      const refused = refusal(raw);
      expect({ raw, code: refused?.code }).toEqual({ raw, code: EXIT.usage });
      expect(refused?.message).toMatch(/^Refusing plain http:\/\/ to .*: secrets travel only over TLS/);
      expect(refused?.message).toContain('localhost, 127.0.0.0/8 or [::1]');
    }
  });

  it('takes https anywhere and refuses other schemes and non-URLs', () => {
    expect(refusal('https://127.example.com')).toBeNull();
    expect(refusal('ftp://localhost')?.code).toBe(EXIT.usage);
    expect(refusal('not a url')?.code).toBe(EXIT.usage);
  });
});

describe('isLoopbackHost', () => {
  it('tests the address, not the name', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('127.example.com')).toBe(false);
    expect(isLoopbackHost('localhost.evil.com')).toBe(false);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
  });
});
